// `@toolhost/node/os`: the OS arm (clipboard, notifications) on its own (its options are at the
// root).
export { createOsArm } from './os/create-os-arm.js';
