// The project's settings and its protective guards. kit check, kit dev, kit build and the editor
// all read the settings from here (as written: literals, read without running this file):
//   ssr      request-time rendering, for pages with a server {} block (here: the account page)
//   sources  the pages (default: site/ beside this file)
//   out, app what kit build writes (default: dist/site and the app server dist/app)
import { allow, app, redirectTo, type KitConfig } from '@kit-lang/kit/app';

export const ssr = true;

// Guards, registered by ID. A page that declares `guard signed.in` runs this one first; anything it
// does not allow never reaches the page or its endpoints.
export const guards: KitConfig['guards'] = {
  'signed.in': (ctx) => (app.cookie(ctx, 'session') ? allow() : redirectTo('/')),
};
