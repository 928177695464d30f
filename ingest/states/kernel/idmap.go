package kernel

// idMap maps integer ids from the trace (thread ids, IRQ numbers) to
// dense indexes. Ids below denseLimit (Linux's largest pid_max, 2^22) go
// through a two-level page table: two array reads per lookup, no hashing,
// pages allocated only where ids occur. Other ids (negative, huge: garbage
// or other systems) use a map.
type idMap struct {
	pages []*[pageSize]int32 // index+1; 0 = absent
	big   map[int64]int32
}

const (
	pageBits   = 10
	pageSize   = 1 << pageBits
	denseLimit = 1 << 22
)

// get returns the index stored for id, or -1.
func (m *idMap) get(id int64) int32 {
	if uint64(id) < denseLimit {
		p := int(id >> pageBits)
		if p < len(m.pages) && m.pages[p] != nil {
			return m.pages[p][id&(pageSize-1)] - 1
		}
		return -1
	}
	if v, ok := m.big[id]; ok {
		return v
	}
	return -1
}

// set stores index v (>= 0) for id.
func (m *idMap) set(id int64, v int32) {
	if uint64(id) < denseLimit {
		p := int(id >> pageBits)
		for len(m.pages) <= p {
			m.pages = append(m.pages, nil)
		}
		if m.pages[p] == nil {
			m.pages[p] = new([pageSize]int32)
		}
		m.pages[p][id&(pageSize-1)] = v + 1
		return
	}
	if m.big == nil {
		m.big = map[int64]int32{}
	}
	m.big[id] = v
}
