/**
 * Opening the Ringlab console from other code: {@link io.ringlab.console.api.ConsoleService} opens a console window on a
 * display the caller owns (the GUI tests do this), and names the widgets a test or an automation can find.
 * <p>
 * Users import it up to the next major version; the console implements the service and imports up to the next minor
 * (bnd computes both ranges). 1.1 added the
 * ids and data keys of the canvas editor, the property forms, the bundles view and the canvas selection; 1.2 those of the
 * live views (chart tabs, latency, queues, pools, cache, CPU table), the export menu items and the streamed file; 1.3
 * those of the swap controls; 1.4 those of the A/B panel; 1.5 those of Exit and the Help menu; 1.6 the canvas's run
 * state ({@code CANVAS_DATA}, {@code CANVAS_TIME_DATA}); 1.7 the sweep charts' x chooser ({@code ID_AB_SWEEP_X}).
 */
@Export
@Version("1.7.0")
package io.ringlab.console.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
