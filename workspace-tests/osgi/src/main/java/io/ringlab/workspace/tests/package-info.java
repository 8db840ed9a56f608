/** OSGi integration tests of Ringlab, run inside Felix by bnd's tester. Not exported. */
package io.ringlab.workspace.tests;
