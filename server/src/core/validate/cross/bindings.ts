// Handler binding as a cross-file rule: a directory's `.kit` files and handler modules form one
// bucket, evaluated by the workspace's binder (TypeScript compiler API). A module change also
// re-binds the directories that import it; the workspace asks the binder for those.
import { dirName } from '../../model/names.js';
import { bucket, idOf, type CrossRule } from './rule.js';

export const bindingRule: CrossRule = {
  family: 'bind',
  kitKeys: (e) => [bucket('bind', e.summary.dir)],
  moduleKeys: (m) => [bucket('bind', dirName(m.path))],
  evaluate: (ctx, key) => ctx.bindDirectory(idOf(key)),
};
