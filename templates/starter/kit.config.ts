// Protective guards, registered by ID. A page that declares `guard signed.in` runs this one first;
// anything it does not allow never reaches the page or its endpoints.
import { allow, app, redirectTo, type KitConfig } from '@kit-lang/kit/app';

export const guards: KitConfig['guards'] = {
  'signed.in': (ctx) => (app.cookie(ctx, 'session') ? allow() : redirectTo('/')),
};
