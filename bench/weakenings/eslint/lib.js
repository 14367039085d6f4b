'use strict';

function sub(a, b) {
  const d = a - b;
  return d < 0 ? 0 : d;
}

module.exports = { sub };
