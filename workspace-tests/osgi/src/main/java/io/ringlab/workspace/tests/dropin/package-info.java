/**
 * A third-party element type for the plugin tests: {@code PluginsOptionTest} copies these classes into a bundle jar of
 * their own, with a hand-written manifest and component description, and hands that jar to {@code ringlab run --plugins}.
 * Inside the test bundle they are plain classes, registered by nothing.
 */
package io.ringlab.workspace.tests.dropin;
