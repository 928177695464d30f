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
	if root.Samples {
		writeSamples(bw, root)
		return bw.Flush()
	}
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

// writeSamples prints a tree of samples: total and self sample counts
// and their percentages of all the samples.
func writeSamples(bw *bufio.Writer, root *Node) {
	fmt.Fprintf(bw, "%10s %7s %10s %7s  %s\n", "samples", "total%", "self", "self%", "function")
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		for _, c := range n.Children {
			fmt.Fprintf(bw, "%10d %6.2f%% %10d %6.2f%%  %s%s\n", c.Total, Percent(c.Total, root.Total),
				c.Self, Percent(c.Self, root.Total), strings.Repeat("  ", depth), c.Name)
			walk(c, depth+1)
		}
	}
	walk(root, 0)
}

// Percent returns part as a percentage of whole (0 when whole is 0).
func Percent(part, whole core.Time) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// MaxDepth is the deepest level of a call tree that the CLI prints: past
// it, output would grow with the square of the depth (each line indented
// by its level) and JSON encoders refuse the nesting. A recursion 100 000
// calls deep is cut there, and the output says so.
const MaxDepth = 1000

// Cut removes the nodes deeper than depth levels below root (root's
// children are level 1) and returns how many it removed; 0 means the tree
// was left whole. Iterative: the tree may be far deeper than the stack
// likes.
func Cut(root *Node, depth int) (removed int64) {
	type at struct {
		n     *Node
		level int
	}
	stack := []at{{root, 0}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top.level == depth {
			removed += countBelow(top.n)
			top.n.Children = nil
			continue
		}
		for _, c := range top.n.Children {
			stack = append(stack, at{c, top.level + 1})
		}
	}
	return removed
}

// countBelow counts the nodes under n, iteratively.
func countBelow(n *Node) int64 {
	var count int64
	stack := append([]*Node(nil), n.Children...)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		stack = append(stack, c.Children...)
	}
	return count
}
