/**
 * A third-party bundle that misbehaves, for {@code FaultIsolationTest}: the test copies these classes into a bundle jar
 * of their own, with a hand-written manifest and one component description per fault, and installs it. Inside the test
 * bundle they are plain classes, registered by nothing.
 */
package io.ringlab.workspace.tests.faulty;
