package history

import (
	"container/list"
	"sync"
)

// nodeCache keeps decoded nodes between queries, bounded in bytes, least
// recently used first out. It is split in shards so concurrent queries
// rarely wait on one another.
type nodeCache struct {
	shards [cacheShards]cacheShard
}

const cacheShards = 16

type cacheShard struct {
	mu    sync.Mutex
	limit int64
	used  int64
	lru   list.List // of *node, most recent at the front
	index map[uint32]*list.Element
}

func newNodeCache(limit int64) *nodeCache {
	if limit <= 0 {
		return nil
	}
	c := &nodeCache{}
	for i := range c.shards {
		c.shards[i].limit = limit / cacheShards
		c.shards[i].index = make(map[uint32]*list.Element)
	}
	return c
}

func (c *nodeCache) get(seq uint32) *node {
	if c == nil {
		return nil
	}
	s := &c.shards[seq%cacheShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.index[seq]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*node)
	}
	return nil
}

// has reports whether node seq is cached, without touching its recency.
func (c *nodeCache) has(seq uint32) bool {
	if c == nil {
		return false
	}
	s := &c.shards[seq%cacheShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.index[seq]
	return ok
}

// put caches n, evicting the least recently used nodes to make room.
func (c *nodeCache) put(n *node) {
	if c == nil {
		return
	}
	s := &c.shards[n.seq%cacheShards]
	size := n.memSize()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.index[n.seq]; ok || size > s.limit {
		return
	}
	s.index[n.seq] = s.lru.PushFront(n)
	s.used += size
	for s.used > s.limit {
		e := s.lru.Back()
		old := e.Value.(*node)
		s.lru.Remove(e)
		delete(s.index, old.seq)
		s.used -= old.memSize()
	}
}
