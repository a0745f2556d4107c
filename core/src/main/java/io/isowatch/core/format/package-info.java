/**
 * History file formats, all behind {@link io.isowatch.core.format.HistoryIO}.
 *
 * <table>
 *   <caption>Formats</caption>
 *   <tr><th>format</th><th>reader</th><th>writer</th><th>shape</th></tr>
 *   <tr><td>JSONL (native contract)</td><td>{@link io.isowatch.core.format.JsonlHistoryReader}</td>
 *       <td>{@link io.isowatch.core.format.JsonlHistoryWriter}</td>
 *       <td>one transaction per line: session, txn, seq?, status, start?, end?, tenant?, level?, ops</td></tr>
 *   <tr><td>TEXT (MTC, PolySI, Plume)</td><td>{@link io.isowatch.core.format.TextHistoryReader}</td>
 *       <td>{@link io.isowatch.core.format.TextHistoryWriter} (lossy, reported)</td>
 *       <td>one op per line: {@code r(key,value,session,txn)}; global integer txn ids; -1 = aborted op</td></tr>
 *   <tr><td>ELLE (Jepsen rw-register)</td><td>{@link io.isowatch.core.format.ElleHistoryReader}</td><td>none</td>
 *       <td>EDN or JSON op maps; invoke paired with the next completion of its process</td></tr>
 *   <tr><td>AION (TimeKiller)</td><td>{@link io.isowatch.core.format.AionHistoryReader}</td><td>none</td>
 *       <td>JSON array of {tid, sid, sts, cts, ops}; sts/cts hybrid logical clocks {p, l}</td></tr>
 * </table>
 *
 * <p>Every reader reports bad input as an {@link io.isowatch.core.format.InvalidHistoryException}
 * naming the line, rejects duplicate transaction ids, and keeps source order. Initial values
 * differ by origin: TEXT and most Aion histories read 0 from keys nobody wrote, Elle reads nil
 * (null); check each with the matching initial value.
 */
package io.isowatch.core.format;
