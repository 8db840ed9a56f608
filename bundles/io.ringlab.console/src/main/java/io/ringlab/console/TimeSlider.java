package io.ringlab.console;

import java.util.Locale;
import java.util.function.IntConsumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Scale;

import io.ringlab.console.api.ConsoleService;

/**
 * The canvas's time slider: after a run (or while it is paused) it picks a sampled time of the run's series, and the
 * canvas shows the run at that time ({@link CanvasState#at}); its last position is the run's end (or the pause), shown as
 * the result (or the snapshot) gives it. While a run runs it is disabled and the canvas follows the run. UI thread only.
 */
final class TimeSlider {
    private final Composite area;
    private final Scale scale;
    private final Label label;
    private IntConsumer listener = row -> { };
    /** The sample times in seconds, one per row; the last position is {@link #endSeconds}. */
    private double[] times = new double[0];
    private double endSeconds;

    /** @param parent where the slider goes (a row under the canvas) */
    TimeSlider(Composite parent) {
        area = new Composite(parent, SWT.NONE);
        area.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        GridLayout gl = new GridLayout(3, false);
        gl.marginHeight = 0;
        gl.marginWidth = 2;
        area.setLayout(gl);
        Label name = new Label(area, SWT.NONE);
        name.setText("Time");
        scale = new Scale(area, SWT.HORIZONTAL);
        scale.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_TIME_SLIDER);
        scale.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        scale.setToolTipText("After a run, or while it is paused: the canvas at a sampled time of the run");
        label = new Label(area, SWT.NONE);
        label.setData(ConsoleService.WIDGET_ID, ConsoleService.ID_TIME_LABEL);
        GridData ld = new GridData(SWT.LEFT, SWT.CENTER, false, false);
        ld.widthHint = label.computeSize(SWT.DEFAULT, SWT.DEFAULT).x + 160;
        label.setLayoutData(ld);
        scale.addListener(SWT.Selection, e -> moved());
        disable("no run");
    }

    /** @param l told of the row picked: a row of the series, or the number of rows for the end */
    void onMove(IntConsumer l) {
        listener = l;
    }

    /**
     * Lets the user pick any sampled time, and sets the slider to the end.
     *
     * @param rowTimes the series' sample times in seconds
     * @param end the time of the end (the result's or the pause's virtual time)
     */
    void enable(double[] rowTimes, double end) {
        times = rowTimes.clone();
        endSeconds = end;
        scale.setMinimum(0);
        scale.setMaximum(Math.max(1, times.length));
        scale.setPageIncrement(Math.max(1, times.length / 10));
        scale.setIncrement(1);
        scale.setSelection(times.length);
        scale.setEnabled(true);
        show(times.length);
    }

    /** Disables the slider (a run runs, or there is none), saying why. */
    void disable(String why) {
        times = new double[0];
        scale.setSelection(0);
        scale.setEnabled(false);
        label.setText(why);
    }

    /** @return the position: a row, or the number of rows for the end */
    int position() {
        return scale.getSelection();
    }

    private void moved() {
        int row = Math.min(scale.getSelection(), times.length);
        show(row);
        listener.accept(row);
    }

    private void show(int row) {
        double t = row < times.length ? times[row] : endSeconds;
        label.setText(String.format(Locale.ROOT, "%.3f ms%s", t * 1e3, row < times.length ? " (sample " + row + ")" : " (end)"));
    }
}
