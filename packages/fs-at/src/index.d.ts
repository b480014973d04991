export declare function loadFsAt(): undefined;
