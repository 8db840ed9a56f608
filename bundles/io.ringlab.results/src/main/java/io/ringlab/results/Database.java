package io.ringlab.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ringlab.experiment.api.ResultsException;

/**
 * Opens results databases and turns DuckDB's failures into messages that name the file and say what to do.
 * <p>
 * DuckDB lets one process open a file for writing, and no other process open it at all meanwhile (readers share a lock
 * that excludes the writer); a refused process gets {@code IO Error: Could not set lock on file "F": Conflicting lock is
 * held in PROGRAM (PID N). See also ...}, from which the messages here take the PID and the program. Within one
 * process, a file open for writing cannot also be opened read-only.
 * <p>
 * Stateless and thread-safe.
 */
final class Database {
    /** How often {@link #openForWriting} tries again while another process holds the file. */
    static final long RETRY_MILLIS = 100;
    /** DuckDB's connection property for a read-only connection. */
    static final String READ_ONLY = "duckdb.read_only";

    private static final Pattern LOCK = Pattern.compile("Conflicting lock is held in (.*?) \\(PID (\\d+)\\)");

    private Database() {
    }

    /**
     * Opens a file for writing, creating it, its folders and its tables if need be, and checks that it is a results
     * database of this version.
     *
     * @param driver DuckDB's driver
     * @param file the file
     * @param wait how long to try again, every {@value #RETRY_MILLIS} ms, while another process holds the file
     * @return a connection with auto-commit off, the only one to the file in this process
     * @throws ResultsException naming the file and why it cannot be written
     */
    static Connection openForWriting(Driver driver, Path file, Duration wait) throws ResultsException {
        Path parent = file.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new ResultsException(file + ": cannot create its folder " + parent + ": " + e.getMessage(), e);
        }
        if (Files.isDirectory(file)) {
            throw new ResultsException(file + ": is a folder, not a results database: give a file");
        }
        long deadline = System.nanoTime() + Math.max(0, wait.toNanos());
        while (true) {
            Connection c;
            try {
                c = driver.connect(DuckDb.URL_PREFIX + file.toAbsolutePath(), new Properties());
            } catch (SQLException e) {
                if (LOCK.matcher(String.valueOf(e.getMessage())).find() && System.nanoTime() + RETRY_MILLIS * 1_000_000L
                        <= deadline) {
                    pause(file);
                    continue;
                }
                throw problem(file, e, true);
            }
            try {
                c.setAutoCommit(false);
                Schema.createOrCheck(c, file);
                return c;
            } catch (ResultsException e) {
                close(c);
                throw e;
            } catch (SQLException | RuntimeException e) {
                close(c);
                throw new ResultsException(file + ": cannot prepare the results database: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Opens a results database read-only and checks its version. A file this process has open for writing (a
     * {@link DuckStore}) cannot be opened read-only in the same process: the reader then shares the writer's database
     * in a transaction of its own, which {@link #release} rolls back, so it sees what is committed and changes nothing.
     *
     * @param driver DuckDB's driver
     * @param file the file
     * @return a read-only connection; the caller gives it back with {@link #release}
     * @throws ResultsException naming the file and why it cannot be read
     */
    static Connection openForReading(Driver driver, Path file) throws ResultsException {
        if (!Files.exists(file)) {
            throw new ResultsException(file + ": no such results database");
        }
        if (Files.isDirectory(file)) {
            throw new ResultsException(file + ": is a folder, not a results database");
        }
        boolean shared = DuckStore.openHere(file);
        Properties p = new Properties();
        if (!shared) {
            p.setProperty(READ_ONLY, "true");
        }
        Connection c;
        try {
            c = driver.connect(DuckDb.URL_PREFIX + file.toAbsolutePath(), p);
            if (shared) {
                c.setAutoCommit(false); // whatever the reader does is rolled back by release()
            }
        } catch (SQLException e) {
            throw problem(file, e, false);
        }
        try {
            Schema.check(c, file);
            return c;
        } catch (ResultsException e) {
            close(c);
            throw e;
        } catch (SQLException | RuntimeException e) {
            close(c);
            throw new ResultsException(file + ": cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * @param file the file DuckDB could not open
     * @param e DuckDB's failure
     * @param writing whether it was opened for writing
     * @return the failure in words: another process holds the file (PID, program), it is no DuckDB file, or DuckDB's
     *         message
     */
    static ResultsException problem(Path file, SQLException e, boolean writing) {
        String message = String.valueOf(e.getMessage());
        Matcher lock = LOCK.matcher(message);
        if (lock.find()) {
            String holder = "PID " + lock.group(2) + ", " + lock.group(1);
            return new ResultsException(writing
                    ? file + ": held by another process (" + holder + "; ringlab ab writes one database at a time): wait"
                            + " for it to end, or give another file with --db"
                    : file + ": held by another process (" + holder + "), which writes it; DuckDB lets no other process"
                            + " read a database while one writes it: wait for it to end, or read a copy of the file", e);
        }
        if (message.contains("not a valid DuckDB database file")) {
            return new ResultsException(file + ": not a Ringlab results database (not a DuckDB file at all)", e);
        }
        if (message.contains("different configuration")) {
            return new ResultsException(file + ": open for writing in this process (an experiment records into it):"
                    + " read it when the experiment ends", e);
        }
        return new ResultsException(file + ": cannot be opened" + (writing ? " for writing" : "") + ": " + firstLine(message), e);
    }

    /** @return DuckDB's message up to its first line break (the rest is a caret under the SQL, or a link) */
    static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl).strip();
    }

    /**
     * Closes a reader's connection, first rolling back its transaction when it shares a writer's database.
     *
     * @param c a connection from {@link #openForReading}
     */
    static void release(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
        } catch (SQLException e) {
            // closing discards the transaction anyway
        }
        close(c);
    }

    /** Closes a connection, ignoring a failure: it is closed on the way out of a failure already reported. */
    static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // the failure that made us close it is the one to report
        }
    }

    private static void pause(Path file) throws ResultsException {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ResultsException(file + ": interrupted while waiting for another process to let go of it", e);
        }
    }
}
