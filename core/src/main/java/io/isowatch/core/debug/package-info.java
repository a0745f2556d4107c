/**
 * Diagnostics any part of the core may call (formats, engine) and the commands above it: {@link
 * io.isowatch.core.debug.DebugTimings}, the phase timestamps of {@code -Disowatch.debug.timing=true}.
 * It depends on no other IsoWatch package, so calling it adds no dependency between the core's
 * packages (the engine in {@code online} does not depend on the file formats in {@code format};
 * {@code CoreLayeringTest} in streams-app checks both).
 */
package io.isowatch.core.debug;
