package callstack

import (
	"math"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// The binaries mapped into a process, from LTTng-UST's statedump and
// dynamic-loader events, kept in the state so that addresses can be named
// when the index is read ([LoadResolver]), long after the events:
//
//	Processes/<vpid>/Binaries/<0xbaddr>              string: the binary's path, null once unmapped
//	Processes/<vpid>/Binaries/<0xbaddr>/Size         int64: bytes mapped (memsz)
//	Processes/<vpid>/Binaries/<0xbaddr>/Debug_link   string: the .gnu_debuglink file name
//
// These names are read and written by this package only.
const (
	attrBinaries  = "Binaries"
	attrSize      = "Size"
	attrDebugLink = "Debug_link"
)

// classifyBinary returns what a statedump or dynamic-loader event does.
func classifyBinary(name string) kind {
	switch name {
	case "lttng_ust_statedump:bin_info", "lttng_ust_dl:dlopen", "lttng_ust_dl:dlmopen":
		return kMapBinary
	case "lttng_ust_statedump:debug_link", "lttng_ust_dl:debug_link":
		return kDebugLink
	case "lttng_ust_dl:dlclose":
		return kUnmapBinary
	}
	return kNone
}

// binaryPlan holds the field indexes of a binary event.
type binaryPlan struct {
	vpid, baddr, memsz, path, link int16
}

func resolveBinaryPlan(c *core.EventClass) binaryPlan {
	idx := func(name string) int16 {
		i := c.FieldIndex(name)
		if i < 0 || i >= math.MaxInt16 {
			return -1
		}
		return int16(i)
	}
	return binaryPlan{
		vpid: idx("context.vpid"), baddr: idx("baddr"), memsz: idx("memsz"),
		path: idx("path"), link: idx("filename"),
	}
}

// binary handles a statedump or dynamic-loader event.
func (a *Analysis) binary(ev *core.Event, p *plan) {
	b := &p.bin
	pid, ok1 := ev.Field(int(b.vpid)).AsInt()
	baddr, ok2 := ev.Field(int(b.baddr)).AsInt()
	if !ok1 || !ok2 || pid < 0 || pid > math.MaxInt32 {
		return
	}
	a.now = ev.Time
	key := a.binaryKey(pid, uint64(baddr))
	switch p.k {
	case kMapBinary:
		path := ev.Field(int(b.path))
		if path.Kind != core.FieldString || len(path.Bytes) == 0 {
			return
		}
		a.modify(key, core.String(cleanName(string(path.Bytes))))
		if size, ok := ev.Field(int(b.memsz)).AsInt(); ok {
			a.modify(a.tree.Add(key, attrSize), core.Int64(size))
		}
	case kDebugLink:
		if f := ev.Field(int(b.link)); f.Kind == core.FieldString && len(f.Bytes) > 0 {
			a.modify(a.tree.Add(key, attrDebugLink), core.String(cleanName(string(f.Bytes))))
		}
	case kUnmapBinary:
		a.modify(key, core.Null())
		for _, k := range a.tree.Children(key) {
			a.modify(k, core.Null())
		}
	}
}

// binaryKey returns Processes/<pid>/Binaries/<0xbaddr>.
func (a *Analysis) binaryKey(pid int64, baddr uint64) core.Key {
	procs := a.tree.Add(core.Root, core.AttrProcesses)
	bins := a.tree.Add(a.tree.Add(procs, strconv.FormatInt(pid, 10)), attrBinaries)
	return a.tree.Add(bins, core.FormatAddress(baddr))
}
