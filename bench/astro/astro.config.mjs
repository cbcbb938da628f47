// Static output, one directory per page (/p/1 → dist/p/1/index.html), like `kit build --out`.
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
});
