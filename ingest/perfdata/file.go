package perfdata

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// file is what a perf.data file says before its records are ordered: its
// attrs, features, tracepoint formats, and what the first pass learned
// (thread names over time, the event classes).
type file struct {
	path     string
	r        io.ReaderAt
	size     int64
	hdr      *header
	order    binary.ByteOrder
	attrs    []*attr
	byID     map[uint64]*attr
	lastID   uint64 // the last ID looked up, and its attr
	lastAttr *attr
	fewIDs   []idAttr // byID as a slice, when it is small
	denseIDs []*attr  // byID by id - idBase, when its IDs are close together
	idBase   uint64
	ids      idPositions
	idsSet   bool
	meta     Meta
	tracing  *tracing
	start    int64 // the records' bounds
	end      int64

	comms   map[int32][]commAt // by tid, in delivery order
	idIndex map[uint64]idEntry // ID_INDEX: the CPU and thread of each ID
	space   addrSpace
}

// commAt is a thread's name from a point on (a COMM record, or the
// parent's name at a FORK).
type commAt struct {
	t    uint64
	at   pos
	comm string
}

type idEntry struct {
	cpu int32
	tid int32
}

// addAttr adds an attr (file mode: from the attrs section; pipe mode: a
// HEADER_ATTR record) and indexes its IDs.
func (f *file) addAttr(a *attr) error {
	if len(f.attrs) >= maxAttrs {
		return fmt.Errorf("%w: more than %d attrs", ErrCorrupt, maxAttrs)
	}
	if f.byID == nil {
		f.byID = map[uint64]*attr{}
	}
	a.index = len(f.attrs)
	f.attrs = append(f.attrs, a)
	for _, id := range a.ids {
		if len(f.byID) >= maxIDs {
			return fmt.Errorf("%w: more than %d event IDs", ErrCorrupt, maxIDs)
		}
		f.byID[id] = a
	}
	return nil
}

// finishAttrs checks that the attrs agree on where records keep their ID
// (perf refuses files whose attrs do not) and names them.
func (f *file) finishAttrs() error {
	if f.idsSet {
		return nil
	}
	if len(f.attrs) == 0 {
		return fmt.Errorf("%w: no event attributes", ErrCorrupt)
	}
	f.idsSet = true
	first := f.attrs[0]
	f.ids = idPositions{sample: sampleIDPos(first.sampleType), trailer: trailerIDPos(first.sampleType)}
	if len(f.attrs) > 1 {
		for _, a := range f.attrs[1:] {
			if sampleIDPos(a.sampleType) != f.ids.sample || trailerIDPos(a.sampleType) != f.ids.trailer || a.sampleIDAll() != first.sampleIDAll() {
				return fmt.Errorf("%w: the events' sample types disagree on where records keep their ID (attrs %d and %d)", ErrUnsupported, first.index, a.index)
			}
		}
		if f.ids.sample < 0 {
			return fmt.Errorf("%w: %d events and no sample ID to tell their samples apart", ErrCorrupt, len(f.attrs))
		}
	}
	for _, a := range f.attrs {
		a.name = f.eventName(a)
	}
	// The kernel numbers the IDs one after the other: a table indexed
	// from the least is a load where the map was 5 % of the CPU of
	// indexing a perf.data of every scheduler, IRQ, timer, system call
	// and workqueue event (54 events on 2 CPUs). IDs far apart: a scan of
	// a few, else the map.
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for id := range f.byID {
		lo, hi = min(lo, id), max(hi, id)
	}
	switch {
	case len(f.byID) > 0 && hi-lo < uint64(denseIDsPer*len(f.byID)):
		f.idBase, f.denseIDs = lo, make([]*attr, hi-lo+1)
		for id, a := range f.byID {
			f.denseIDs[id-lo] = a
		}
	case len(f.byID) <= 32:
		for id, a := range f.byID {
			f.fewIDs = append(f.fewIDs, idAttr{id, a})
		}
	}
	return nil
}

// denseIDsPer is how many entries of the dense table of IDs each ID may
// take at most (else the map).
const denseIDsPer = 4

type idAttr struct {
	id uint64
	a  *attr
}

// eventName is the event's name as perf prints it: EVENT_DESC's name, else
// the tracepoint's system:name, else a name from the type and config.
func (f *file) eventName(a *attr) string {
	for _, id := range a.ids {
		if n, ok := f.meta.names[id]; ok && n != "" {
			return n
		}
	}
	if a.typ == typeTracepoint && f.tracing != nil {
		if ef := f.tracing.formats[int(a.config)]; ef != nil {
			return ef.System + ":" + ef.Name
		}
	}
	if a.typ == typeSoftware {
		names := []string{"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy", "bpf-output", "cgroup-switches"}
		if a.config < uint64(len(names)) {
			return names[a.config]
		}
	}
	if a.typ == typeHardware {
		names := []string{"cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"}
		if a.config < uint64(len(names)) {
			return names[a.config]
		}
	}
	return "type" + strconv.Itoa(int(a.typ)) + ":0x" + strconv.FormatUint(a.config, 16)
}

// attrOf returns the attr of a record: the only one, or the one its ID
// names (for a non-sample record, only with sample_id_all); nil when the
// record does not say.
func (f *file) attrOf(typ uint32, data []byte) (*attr, error) {
	if len(f.attrs) == 1 {
		return f.attrs[0], nil
	}
	var id uint64
	switch {
	case typ == recSample:
		p := 8 + f.ids.sample
		if f.ids.sample < 0 || p+8 > len(data) {
			return nil, fmt.Errorf("%w: a sample of %d bytes without its event ID", ErrCorrupt, len(data))
		}
		id = f.order.Uint64(data[p:])
	case !f.attrs[0].sampleIDAll() || f.ids.trailer < 0:
		return nil, nil
	default:
		p := len(data) - f.ids.trailer
		if p < 8 || p+8 > len(data) {
			return nil, fmt.Errorf("%w: a record of type %d and %d bytes without its event ID", ErrCorrupt, typ, len(data))
		}
		id = f.order.Uint64(data[p:])
	}
	if id == 0 {
		return f.attrs[0], nil // perf's synthesized records: the first event, as perf takes it
	}
	if id == f.lastID && f.lastAttr != nil {
		return f.lastAttr, nil
	}
	var a *attr
	ok := false
	switch {
	case f.denseIDs != nil:
		if i := id - f.idBase; i < uint64(len(f.denseIDs)) {
			a = f.denseIDs[i]
			ok = a != nil
		}
	case f.fewIDs != nil: // a few IDs: a scan beats the map
		for i := range f.fewIDs {
			if f.fewIDs[i].id == id {
				a, ok = f.fewIDs[i].a, true
				break
			}
		}
	default:
		a, ok = f.byID[id]
	}
	if ok {
		f.lastID, f.lastAttr = id, a
	}
	if !ok {
		return nil, fmt.Errorf("%w: event ID %d belongs to no event attribute", ErrCorrupt, id)
	}
	return a, nil
}

// addComm notes a thread's name from a point on.
func (f *file) addComm(tid int32, t uint64, at pos, comm string) {
	if f.comms == nil {
		f.comms = map[int32][]commAt{}
	}
	f.comms[tid] = append(f.comms[tid], commAt{t: t, at: at, comm: comm})
}

// sortComms puts each thread's names in delivery order (time 0 first, as
// perf delivers them as read, then by time and file order).
func (f *file) sortComms() {
	for _, cs := range f.comms {
		sort.SliceStable(cs, func(i, j int) bool {
			return cs[i].t < cs[j].t || cs[i].t == cs[j].t && cs[i].at.less(cs[j].at)
		})
	}
}

// comm returns a thread's name at a record delivered at (t, at): the last
// name set before it; "" when none is known.
func (f *file) comm(tid int32, t uint64, at pos) string {
	cs := f.comms[tid]
	i := sort.Search(len(cs), func(i int) bool {
		c := cs[i]
		return c.t > t || c.t == t && !c.at.less(at)
	})
	if i == 0 {
		return ""
	}
	return cs[i-1].comm
}

// cpuOf returns a record's CPU, -1 when it has none.
func cpuOf(s *sample) int32 {
	if s.hasCPU {
		return int32(s.cpu)
	}
	return -1
}

var _ = core.MinTime
