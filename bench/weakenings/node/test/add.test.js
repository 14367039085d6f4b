'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../lib.js');

test('adds', () => {
  assert.strictEqual(add(2, 3), 5);
  assert.strictEqual(add(90, 20), 100);
});
