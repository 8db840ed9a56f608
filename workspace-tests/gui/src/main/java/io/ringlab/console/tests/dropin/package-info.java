/**
 * Two third-party element types for {@code DropInGuiTest}: the test copies these classes into a bundle jar of their own
 * (symbolic name {@code org.example.dropin}, not one of Ringlab's own), with a hand-written manifest and component
 * descriptions, and drops that jar into the folder the console's fileinstall watches. Inside the test bundle they are
 * plain classes, registered by nothing.
 */
package io.ringlab.console.tests.dropin;
