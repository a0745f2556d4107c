/**
 * Running a workload: sessions, the transaction runner that decides what is recorded, client
 * timestamps, progress and the run summary.
 */
package io.isowatch.agent.run;
