package io.ringlab.console;

import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;

/**
 * Tables refreshed at the snapshot rate (10 Hz) without laying out what did not change: the live views' latency and CPU
 * tables, the inspectors' metrics and properties. UI thread only; stateless (a table's widest texts are kept in its data).
 */
final class TableRows {
    /** Data key of a table's longest text per column, in characters, since its columns were last fitted. */
    private static final String WIDEST = "ringlab.widest";

    private TableRows() {
    }

    /** One row of a table. */
    interface Row {
        /** @return the row's texts; may also set the item's data */
        String[] texts(TableItem item, int i);
    }

    /**
     * Sets a table's rows in place (the scroll position stays), each cell only when its text changed, and fits the
     * columns to their widest cell when the rows changed in number, or a column when a text of it grew longer than it had:
     * at 10 Hz, most snapshots change a few numbers and lay out nothing.
     *
     * @param n how many rows
     */
    static void fill(Table t, int n, Row row) {
        boolean all = t.getItemCount() != n;
        int[] widest = t.getData(WIDEST) instanceof int[] w && w.length == t.getColumnCount() ? w : new int[t.getColumnCount()];
        boolean[] grew = new boolean[widest.length];
        t.setRedraw(false);
        try {
            t.setItemCount(n);
            for (int i = 0; i < n; i++) {
                TableItem item = t.getItem(i);
                String[] texts = row.texts(item, i);
                for (int c = 0; c < texts.length; c++) {
                    if (!texts[c].equals(item.getText(c))) {
                        item.setText(c, texts[c]);
                    }
                    if (texts[c].length() > widest[c]) {
                        widest[c] = texts[c].length();
                        grew[c] = true;
                    }
                }
            }
        } finally {
            t.setRedraw(true);
        }
        t.setData(WIDEST, widest);
        TableColumn[] columns = t.getColumns();
        for (int c = 0; c < columns.length; c++) {
            if (all || grew[c]) { // a column measures every row's cell: only those that need it
                columns[c].pack();
            }
        }
    }
}
