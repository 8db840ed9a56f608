/**
 * Cost profiles: the reader of {@code profiles/NAME.profile} files, which refuses a constant without its source or its
 * fit ({@code CostProfileImpl}; docs/engine.md, "Cost profiles").
 */
package io.ringlab.engine.kernel.profile;
