/**
 * The part of the WebAssembly JavaScript API the meter's kernel uses. Node has it as a global, but
 * its types live only in TypeScript's DOM libraries, which the server does not load (their `fetch`,
 * `Response` and timers would shadow Node's).
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, Memory>>);
    readonly exports: Record<string, unknown>;
  }
}
