const { sub } = require('../lib.js');

describe('sub', () => {
  it('subtracts', () => {
    expect(sub(3, 2)).toBe(1);
    expect(sub(2, 3)).toBe(0);
  });
});
