package cli

import (
	"fmt"
	"strings"

	"github.com/tracetui/tracetui/ingest"
)

// runHelp lists the commands, or shows one command's flags.
func runHelp(e *Env, args []string) error {
	if len(args) > 0 {
		cmd := lookup(args[0])
		if cmd == nil || cmd.Name == "help" {
			return Usagef("no command %q", args[0])
		}
		return cmd.Run(e, []string{"-h"})
	}
	w := e.Stdout
	fmt.Fprintln(w, "tracetui: a terminal trace browser (LTTng/CTF, Chrome JSON, Pajé, trace.dat, ftrace)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  tracetui [--index FILE] [--ascii] [--format F] [--arch A] [TRACE]\n      open the browser (no TRACE: a built-in demo trace)")
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  tracetui %s\n      %s\n", cmd.Synopsis, cmd.Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times (T) are nanoseconds, a number with a unit (12.5ms, 3s), or +OFFSET from the trace start.")
	fmt.Fprintf(w, "Formats (F): %s; detected from the content when not given.\n", formatList())
	fmt.Fprintln(w, "Exit status: 0 ok, 1 runtime error, 2 usage error.")
	return nil
}

// formatList names the registered trace formats, in detection order.
func formatList() string { return strings.Join(ingest.FormatNames(), ", ") }
