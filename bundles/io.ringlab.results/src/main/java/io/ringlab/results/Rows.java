package io.ringlab.results;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Bulk rows into one table within the connection's transaction: through DuckDB's appender ({@code
 * DuckDBConnection.createAppender(schema, table)}, reached by reflection because the bundle does not import
 * {@code org.duckdb}), or, where it cannot be reached, through a batched {@code INSERT}.
 * <p>
 * A row is {@link #begin()}, one value per column in the table's order, {@link #end()}; {@link #finish()} writes what
 * is left and reports a constraint DuckDB refused (the appender refuses a whole chunk at its flush, and its
 * {@code close()} alone would drop the chunk silently). A failure leaves the transaction to be rolled back. NaN is
 * written as {@code NULL}.
 * <p>
 * Not thread-safe: one thread, one table, one transaction.
 */
abstract class Rows implements AutoCloseable {

    /**
     * @param c the connection, in a transaction
     * @param table a table of the {@code main} schema
     * @param columns its number of columns (for the batched {@code INSERT})
     * @return rows into the table
     * @throws SQLException if DuckDB refuses
     */
    static Rows into(Connection c, String table, int columns) throws SQLException {
        Appending a = Appending.handles(c);
        if (a != null) {
            try {
                return new Appender(a, a.create.invoke(c, "main", table));
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new SQLException("DuckDB's appender for " + table + " cannot be created: " + t, t);
            }
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" VALUES (");
        for (int i = 0; i < columns; i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        return new Batch(c.prepareStatement(sql.append(')').toString()));
    }

    /** Starts a row. */
    abstract void begin() throws SQLException;

    /** @param v the next column's text; {@code null} for {@code NULL} */
    abstract void text(String v) throws SQLException;

    /** @param v the next column's number; NaN for {@code NULL} */
    abstract void number(double v) throws SQLException;

    /** @param v the next column's whole number, a {@code BIGINT} */
    abstract void integer(long v) throws SQLException;

    /** Appends a {@code DOUBLE[]}, NaN as a NULL element. */
    abstract void numbers(double[] v) throws SQLException;

    /** @param v the next column's whole number, an {@code INTEGER} (the appender takes each column's own type only) */
    abstract void ordinal(int v) throws SQLException;

    /** @param v the next column's truth value */
    abstract void bool(boolean v) throws SQLException;

    /** Ends the row. */
    abstract void end() throws SQLException;

    /** Writes the rows not yet written; a refused row (a {@code NOT NULL} column without value) fails here. */
    abstract void finish() throws SQLException;

    /** Releases the appender or statement; rows not {@link #finish() finished} may be lost. */
    @Override
    public abstract void close();

    /** The appender's methods, looked up once per class of connection. */
    private static final class Appending {
        private static volatile Appending cached; // for the one DuckDB connection class there is

        final Class<?> connectionClass;
        final MethodHandle create;
        final MethodHandle beginRow;
        final MethodHandle endRow;
        final MethodHandle appendString;
        final MethodHandle appendDouble;
        final MethodHandle appendDoubles;
        final MethodHandle appendLong;
        final MethodHandle appendInt;
        final MethodHandle appendBoolean;
        final MethodHandle appendNull;
        final MethodHandle flush;
        final MethodHandle close;

        private Appending(Class<?> c) throws ReflectiveOperationException {
            MethodHandles.Lookup l = MethodHandles.publicLookup();
            connectionClass = c;
            java.lang.reflect.Method m = c.getMethod("createAppender", String.class, String.class);
            Class<?> a = m.getReturnType();
            create = l.unreflect(m).asType(MethodType.methodType(Object.class, Connection.class, String.class, String.class));
            beginRow = handle(l, a, "beginRow");
            endRow = handle(l, a, "endRow");
            appendString = handle(l, a, "append", String.class);
            appendDouble = handle(l, a, "append", double.class);
            appendDoubles = handle(l, a, "append", double[].class, boolean[].class);
            appendLong = handle(l, a, "append", long.class);
            appendInt = handle(l, a, "append", int.class);
            appendBoolean = handle(l, a, "append", boolean.class);
            appendNull = handle(l, a, "appendNull");
            flush = handle(l, a, "flush");
            close = handle(l, a, "close");
        }

        private static MethodHandle handle(MethodHandles.Lookup l, Class<?> a, String name, Class<?>... parameters)
                throws ReflectiveOperationException {
            MethodHandle h = l.unreflect(a.getMethod(name, parameters));
            Class<?>[] erased = new Class<?>[parameters.length + 1];
            erased[0] = Object.class;
            System.arraycopy(parameters, 0, erased, 1, parameters.length);
            return h.asType(MethodType.methodType(Object.class, erased)); // a void method returns null

        }

        /** @return the appender's methods for this connection, or {@code null} if it has none */
        static Appending handles(Connection c) {
            Appending a = cached;
            if (a != null && a.connectionClass == c.getClass()) {
                return a;
            }
            try {
                a = new Appending(c.getClass());
                cached = a;
                return a;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null; // not a DuckDB connection with an appender: a batched INSERT will do
            }
        }
    }

    /** Through DuckDB's appender. */
    private static final class Appender extends Rows {
        private final Appending a;
        private final Object appender;

        Appender(Appending a, Object appender) {
            this.a = a;
            this.appender = appender;
        }

        @Override
        void begin() throws SQLException {
            call(a.beginRow);
        }

        @Override
        void text(String v) throws SQLException {
            if (v == null) {
                call(a.appendNull);
            } else {
                try {
                    a.appendString.invoke(appender, v);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
            }
        }

        @Override
        void numbers(double[] v) throws SQLException {
            boolean[] nulls = new boolean[v.length];
            for (int i = 0; i < v.length; i++) {
                nulls[i] = Double.isNaN(v[i]);
            }
            try {
                a.appendDoubles.invoke(appender, v, nulls);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void number(double v) throws SQLException {
            if (Double.isNaN(v)) {
                call(a.appendNull);
            } else {
                try {
                    a.appendDouble.invoke(appender, v);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
            }
        }

        @Override
        void integer(long v) throws SQLException {
            try {
                a.appendLong.invoke(appender, v);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void ordinal(int v) throws SQLException {
            try {
                a.appendInt.invoke(appender, v);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void bool(boolean v) throws SQLException {
            try {
                a.appendBoolean.invoke(appender, v);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void end() throws SQLException {
            call(a.endRow);
        }

        @Override
        void finish() throws SQLException {
            call(a.flush);
        }

        @Override
        public void close() {
            try {
                a.close.invoke(appender);
            } catch (Throwable t) {
                // the rows were flushed or the transaction is rolled back; nothing more to report
            }
        }

        private void call(MethodHandle h) throws SQLException {
            try {
                h.invoke(appender);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private static SQLException rethrow(Throwable t) {
            if (t instanceof SQLException e) {
                return e;
            }
            if (t instanceof RuntimeException e) {
                throw e;
            }
            if (t instanceof Error e) {
                throw e;
            }
            return new SQLException(t.toString(), t);
        }
    }

    /** Through a batched {@code INSERT}. */
    private static final class Batch extends Rows {
        private final PreparedStatement s;
        private int column;

        Batch(PreparedStatement s) {
            this.s = s;
        }

        @Override
        void begin() {
            column = 0;
        }

        @Override
        void text(String v) throws SQLException {
            s.setString(++column, v);
        }

        @Override
        void number(double v) throws SQLException {
            if (Double.isNaN(v)) {
                s.setNull(++column, Types.DOUBLE);
            } else {
                s.setDouble(++column, v);
            }
        }

        @Override
        void integer(long v) throws SQLException {
            s.setLong(++column, v);
        }

        @Override
        void numbers(double[] v) throws SQLException {
            Object[] boxed = new Object[v.length];
            for (int i = 0; i < v.length; i++) {
                boxed[i] = Double.isNaN(v[i]) ? null : v[i];
            }
            s.setObject(++column, s.getConnection().createArrayOf("DOUBLE", boxed));
        }

        @Override
        void ordinal(int v) throws SQLException {
            s.setInt(++column, v);
        }

        @Override
        void bool(boolean v) throws SQLException {
            s.setBoolean(++column, v);
        }

        @Override
        void end() throws SQLException {
            s.addBatch();
        }

        @Override
        void finish() throws SQLException {
            s.executeBatch();
        }

        @Override
        public void close() {
            try {
                s.close();
            } catch (SQLException e) {
                // nothing left to report: the batch ran or the transaction is rolled back
            }
        }
    }
}
