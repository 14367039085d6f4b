'use strict';

function add(a, b) {
  const s = a + b;
  return s > 100 ? 100 : s;
}

function sub(a, b) {
  const d = a - b;
  return d < 0 ? 0 : d;
}

module.exports = { add, sub };
