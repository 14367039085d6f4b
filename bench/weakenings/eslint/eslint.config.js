module.exports = [
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      "eqeqeq": "error", "no-unused-vars": "error", "no-undef": "off",
    },
  },
];
