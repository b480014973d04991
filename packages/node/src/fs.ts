// `@toolhost/node/fs`: the filesystem jail's floors (what no tool reads or writes) and the jail's
// own types.
export { isOnReadFloor, isOnWriteFloor, foldSegment, SHELL_STARTUP_FILES } from './fs/floor.js';
export type { FloorContext } from './fs/floor.js';
export type { Jail, OpenedEntry, WriteTarget } from './fs/jail.js';
