'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { sub } = require('../lib.js');

test('subtracts', () => {
  assert.strictEqual(sub(3, 2), 1);
  assert.strictEqual(sub(2, 3), 0);
});
