// The options a check runs with; the workspace holds them and every rule reads them.
export interface CheckOptions {
  /** `--ssr`: request-time rendering is enabled. */
  ssr: boolean;
  /** `kit build --strict-bindings`: a missing or unusable handler is an error (`backend_binding_required`). */
  strictBindings?: boolean;
  /**
   * Whether a workspace path names a regular file: how `missing_asset` looks up the files that
   * `asset`, `wasm` and `error` declare. The command line and the language server answer it from
   * the disk; without it those declarations are not looked up.
   */
  files?: FileProbe;
}

export interface FileProbe {
  isFile(workspacePath: string): boolean;
}
