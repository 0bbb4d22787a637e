// Prints one plain closing line, "jest: N passed, N failed, N skipped", that CI logs can read.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const failed = numFailedTests + (results.numRuntimeErrorTestSuites || 0);
    process.stdout.write(
      `\njest: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
    // The browser tests skip themselves without Chromium: say so where nobody can miss it.
    const browserSkipped = results.testResults
      .filter((file) => /[\\/]test[\\/]e2e[\\/]console[\\/]/.test(file.testFilePath))
      .reduce((n, file) => n + file.numPendingTests, 0);
    if (browserSkipped > 0) {
      process.stdout.write(
        `jest: BROWSER TESTS NOT RUN (${browserSkipped} skipped): no Chromium (apt-get install -y chromium)\n`,
      );
    }
  }
}
module.exports = SummaryReporter;
