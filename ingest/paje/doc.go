// Package paje reads Pajé text traces (the format of the Pajé, ViTE and
// PajeNG tools: %EventDef header blocks giving each event's fields and
// types, then one event per line) and computes their states.
//
// # Reading
//
// Both the PajeNG field names (Type, StartContainerType...) and the
// original Pajé ones (ContainerType, EntityType, SourceContainer...) are
// accepted; classes expose the PajeNG names. Every event definition the
// format knows (PajeDefine*, PajeCreateContainer, PajeDestroyContainer,
// PajeSet/Add/SubVariable, PajeSet/Push/Pop/ResetState, PajeStart/EndLink,
// PajeNewEvent) is a class named after it, whose fields are the
// definition's fields other than Time (typed as declared: int and hex as
// FieldInt, double as FieldFloat, string and color as FieldString) after
// context.tid (the container's alias, or name), context.comm (its name),
// context.pid and context.procname (its parent's). Definitions without a
// time (types, entity values) are delivered at the time of the event
// before them. Dates are seconds, converted exactly to nanoseconds up to
// nine decimals.
//
// Open reads the trace once (definitions, containers, time range) and
// collects the problems, which never stop reading: an unknown event
// definition is reported once and its events are skipped (counted); a
// line with an undefined id, too few values, a bad time or an unterminated
// quote is skipped with a warning naming its line and offset; a time
// earlier than the one before (PajeNG refuses those) is delivered at the
// previous time with a warning. A checkpoint is a byte offset.
//
// # States
//
// [NewAnalysis] maps containers onto rows of core/model.go's thread model.
// A container gets a row when its first state, variable or link is set:
//
//	Threads/<alias>                  top of its primary state type's stack (string), or null
//	Threads/<alias>/CallStack/<d>    primary state type, stack depth d (1 = bottom)
//	Threads/<alias>/States/<type>    top of each other state type's stack
//	Threads/<alias>/Variables/<type> each variable (float64)
//	Threads/<alias>/Exec_name        the container's name
//	Threads/<alias>/PID              int32 number of its parent container (1, 2... by
//	                                 first appearance), which groups the rows
//	Processes/<PID>/Exec_name        the parent container's name ("(root)" for the root)
//	Threads/<alias>/Flow_out         "<type>/<value>#<key>" while a link leaves it
//	Threads/<alias>/Flow_in          "<type>/<value>#<key> from <row> at <ns>" from a
//	                                 link's end to its next state change (links.go)
//
// The primary state type of a container is the first one set on it. Set
// replaces the stack, Push pushes, Pop pops (a Pop on an empty stack is
// ignored with a warning), Reset empties it, and destroying a container
// empties all its stacks and nulls its variables; values defined by PajeDefineEntityValue show
// their name. So CallStack/<d> equals pj_dump's states of imbrication d-1.
// NewEvent is an event only. Rows whose alias holds '/' use '_';
// two containers with one alias get "#2", "#3"... suffixes.
package paje
