const { add } = require('../lib.js');

describe('add', () => {
  it('adds', () => {
    expect(add(2, 3)).toBe(5);
    expect(add(90, 20)).toBe(100);
  });
});
