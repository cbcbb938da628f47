// The options a check runs with; the workspace holds them and every rule reads them.
export interface CheckOptions {
  /** `--ssr`: request-time rendering is enabled. */
  ssr: boolean;
  /** `kit build --strict-bindings`: a missing or unusable handler is an error (`backend_binding_required`). */
  strictBindings?: boolean;
}
