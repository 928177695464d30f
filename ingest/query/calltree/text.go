package calltree

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// WriteText prints the tree one function per line, children indented
// under their caller, with calls, total, self, shortest and longest call.
func WriteText(w io.Writer, root *Node) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%10s %10s %8s %10s %10s  %s\n", "total", "self", "calls", "min", "max", "function")
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		for _, c := range n.Children {
			fmt.Fprintf(bw, "%10s %10s %8d %10s %10s  %s%s\n", core.FormatDuration(c.Total), core.FormatDuration(c.Self),
				c.Calls, core.FormatDuration(c.Min), core.FormatDuration(c.Max), strings.Repeat("  ", depth), c.Name)
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return bw.Flush()
}
