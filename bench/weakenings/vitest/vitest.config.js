module.exports = {
  test: {
    include: ['test/**/*.test.js'],
  },
};
