package io.ringlab.results;

import java.sql.Connection;
import java.sql.DriverManager;

/**
 * A second process for the lock test: opens the DuckDB file named by its argument for writing, as {@code ringlab ab}
 * would, prints {@code locked} once it holds DuckDB's lock, and holds it until its standard input ends or it is killed.
 */
public final class LockHolder {
    /** What the process prints once it holds the lock. */
    static final String LOCKED = "locked";

    private LockHolder() {
    }

    /**
     * @param args the database file
     * @throws Exception if DuckDB cannot open the file
     */
    public static void main(String[] args) throws Exception {
        Class.forName(DuckDb.DRIVER);
        try (Connection c = DriverManager.getConnection(DuckDb.URL_PREFIX + args[0])) {
            System.out.println(LOCKED);
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the connection, and with it the lock, until stdin closes or the process is killed
            }
        }
    }
}
