// Which HTML answers kit dev adds its client and overlay to: whole documents only.
import { strict as assert } from 'node:assert';
import { isFullDocument } from '#cli/dev/inject.js';

describe('isFullDocument', () => {
  it('a doctype or <html> first, after white space and comments', () => {
    for (const doc of [
      '<!doctype html>\n<html>',
      '<!DOCTYPE HTML>',
      '\uFEFF<!doctype html>',
      '  \n<!-- built by kit --> <!-- twice --><!doctype html>',
      '<html lang="en">',
      '<html>',
    ])
      assert.equal(isFullDocument(doc), true, JSON.stringify(doc));
    for (const piece of [
      '<form method="post">',
      '<p>Thanks</p>',
      '<em>partial</em><!doctype html>',
      '<!-- never closed <!doctype html>',
      '<htmlx>',
      '',
      'internal server error\n',
    ])
      assert.equal(isFullDocument(piece), false, JSON.stringify(piece));
  });

  it('reads past any number of comments', () => {
    assert.equal(isFullDocument('<!-- c -->'.repeat(200_000) + '<!-- open'), false);
    assert.equal(isFullDocument('<!-- c -->'.repeat(200_000) + '<!doctype html>'), true);
  });
});
