/** GUI tests of the Ringlab console, run inside Felix by bnd's tester under an X display (Xvfb in CI). Not exported. */
package io.ringlab.console.tests;
