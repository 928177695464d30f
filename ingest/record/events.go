package record

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultGroups are the event groups recorded without -e: those the
// analyses read (sched includes sched_process_*, irq the softirqs,
// timer the hrtimers, task task_newtask, whose clone flags tell a new
// thread from a new process: trace.dat keeps no tgid).
var DefaultGroups = []string{"sched", "irq", "timer", "raw_syscalls", "workqueue", "task"}

// Selection is the set of events to record: whole groups, plus single
// events added to or removed from them.
type Selection struct {
	Groups []string // events/<group>
	Add    []string // "group/event" enabled besides the groups
	Remove []string // "group/event" disabled within the groups
}

// ParseEvents applies a -e value to the default groups: a comma-separated
// list of GROUP or GROUP:EVENT items, each adding (bare or "+") or
// removing ("-") it. "-all" (or an empty first "-") starts from nothing.
func ParseEvents(spec string) (Selection, error) {
	sel := Selection{Groups: slices.Clone(DefaultGroups)}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		remove := strings.HasPrefix(item, "-")
		item = strings.TrimLeft(item, "+-")
		if item == "all" && remove {
			sel = Selection{}
			continue
		}
		group, event, single := strings.Cut(strings.ReplaceAll(item, ":", "/"), "/")
		if group == "" || strings.ContainsAny(group, "/. ") || (single && (event == "" || strings.ContainsAny(event, "/. "))) {
			return sel, fmt.Errorf("-e %q: want GROUP or GROUP:EVENT, prefixed by - to remove", item)
		}
		name := group
		if single {
			name = group + "/" + event
		}
		switch {
		case !single && remove:
			sel.Groups = slices.DeleteFunc(sel.Groups, func(g string) bool { return g == group })
			sel.Add = slices.DeleteFunc(sel.Add, func(e string) bool { return strings.HasPrefix(e, group+"/") })
		case !single:
			if !slices.Contains(sel.Groups, group) {
				sel.Groups = append(sel.Groups, group)
			}
		case remove:
			sel.Add = slices.DeleteFunc(sel.Add, func(e string) bool { return e == name })
			if slices.Contains(sel.Groups, group) && !slices.Contains(sel.Remove, name) {
				sel.Remove = append(sel.Remove, name)
			}
		default:
			sel.Remove = slices.DeleteFunc(sel.Remove, func(e string) bool { return e == name })
			if !slices.Contains(sel.Groups, group) && !slices.Contains(sel.Add, name) {
				sel.Add = append(sel.Add, name)
			}
		}
	}
	for _, l := range []*[]string{&sel.Groups, &sel.Add, &sel.Remove} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if len(sel.Groups) == 0 && len(sel.Add) == 0 {
		return sel, fmt.Errorf("-e %q leaves no event to record", spec)
	}
	return sel, nil
}

// check returns ErrNoEvent, saying which, for the first group or event
// of sel that the tracefs at eventsDir lacks.
func (sel Selection) check(eventsDir string) error {
	for _, g := range sel.Groups {
		if _, err := os.Stat(filepath.Join(eventsDir, g, "enable")); err != nil {
			hint := "see available_events in tracefs"
			if slices.Contains(DefaultGroups, g) {
				hint = "record without it: -e -" + g
			}
			return fmt.Errorf("event group %q: %w (%s)", g, ErrNoEvent, hint)
		}
	}
	for _, e := range append(slices.Clone(sel.Add), sel.Remove...) {
		if _, err := os.Stat(filepath.Join(eventsDir, e, "enable")); err != nil {
			return fmt.Errorf("event %q: %w (see available_events in tracefs)", strings.Replace(e, "/", ":", 1), ErrNoEvent)
		}
	}
	return nil
}

// enable enables the selection's events in the instance.
func (sel Selection) enable(in *instance) error {
	for _, g := range sel.Groups {
		if err := in.write("events/"+g+"/enable", "1"); err != nil {
			return err
		}
	}
	for _, e := range sel.Add {
		if err := in.write("events/"+e+"/enable", "1"); err != nil {
			return err
		}
	}
	for _, e := range sel.Remove {
		if err := in.write("events/"+e+"/enable", "0"); err != nil {
			return err
		}
	}
	return nil
}

// eventFormat is one event's format file.
type eventFormat struct {
	system, name string
	text         []byte
}

// formats returns the format files of the selection's events, by
// system in the order given then by event name.
func (sel Selection) formats(eventsDir string) ([]eventFormat, error) {
	var out []eventFormat
	add := func(system, name string) error {
		for _, f := range out {
			if f.system == system && f.name == name {
				return nil
			}
		}
		text, err := os.ReadFile(filepath.Join(eventsDir, system, name, "format"))
		if err != nil {
			return fmt.Errorf("event %s:%s format: %w", system, name, err)
		}
		out = append(out, eventFormat{system, name, text})
		return nil
	}
	for _, g := range sel.Groups {
		ents, err := os.ReadDir(filepath.Join(eventsDir, g))
		if err != nil {
			return nil, fmt.Errorf("event group %s: %w", g, err)
		}
		for _, e := range ents {
			if !e.IsDir() || slices.Contains(sel.Remove, g+"/"+e.Name()) {
				continue
			}
			if err := add(g, e.Name()); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range sel.Add {
		system, name, _ := strings.Cut(e, "/")
		if err := add(system, name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ftraceFormats returns the format files of the ftrace system (the
// tracers' own records: print, function...), which trace.dat keeps apart.
func ftraceFormats(eventsDir string) []eventFormat {
	var out []eventFormat
	ents, _ := os.ReadDir(filepath.Join(eventsDir, "ftrace"))
	for _, e := range ents {
		if text, err := os.ReadFile(filepath.Join(eventsDir, "ftrace", e.Name(), "format")); err == nil {
			out = append(out, eventFormat{"ftrace", e.Name(), text})
		}
	}
	return out
}
