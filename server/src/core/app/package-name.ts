// The npm package kit is published as. Generated apps and user handlers import its runtime by this
// name (`@kit-lang/kit/app`), and `kit build --app` vendors the runtime under it.
export const KIT_PACKAGE = '@kit-lang/kit';
