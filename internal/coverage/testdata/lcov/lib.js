'use strict';

// sign names the sign of x.
function sign(x) {
  if (x < 0) {
    return 'negative';
  }
  if (x === 0) {
    return 'zero';
  }
  return 'positive';
}

module.exports = { sign };
