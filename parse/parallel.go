package parse

import (
	"slices"
	"sync"

	"github.com/compaudit/compaudit/parse/linereader"
)

// A batch is a run of lines read together: one goroutine prepares it while
// others prepare the batches around it, and the decoder applies them in
// file order.
type batch struct {
	lines []linereader.BatchLine
	out   []any
	lists *batchLists // the chunk's lines and out, on its last batch
}

// batchLines is the most lines a batch holds. A chunk of a session holds a
// few hundred records; one of a multi-agent run, about 9,000 small ones,
// whose prepared events take several times the chunk's size, and whole
// chunks in flight held tens of megabytes of them. A variable so tests can
// cut a chunk into many batches.
var batchLines = 2048

// batchLists are a batch's lines and what was prepared of them, reused with
// its chunk: a chunk of small records (a multi-agent run's) holds thousands,
// and making both lists afresh for every chunk showed as page faults.
type batchLists struct {
	lines []linereader.BatchLine
	out   []any
}

// freeLists holds batchLists for reuse, as freeChunks holds chunks.
var freeLists = make(linereader.Reuse[*batchLists], 32)

func takeLists() *batchLists {
	if l, ok := freeLists.Take(); ok {
		return l
	}
	return &batchLists{}
}

// releaseLists hands a batch's lists back once it is applied, holding
// nothing of what they held.
func releaseLists(l *batchLists) {
	clear(l.lines)
	clear(l.out)
	freeLists.Give(l)
}

// pipeline is what the goroutines of streamParallel share.
type pipeline struct {
	s   *Sink
	lr  *linereader.Reader
	dec Decoder
	// limit bounds the batches read and not yet applied, so memory does
	// not grow with the file: a worker ahead of the applying goroutine by
	// that many waits.
	limit int

	readMu sync.Mutex // held while reading, so chunks join the queue in file order
	mu     sync.Mutex // guards what follows
	cond   sync.Cond  // a batch was read, prepared or applied, or the stream ended
	queue  []*queued  // read and not yet applied, in file order
	// reading counts the chunks being read, against limit
	reading int
	ended   bool // no more chunks
	stopped bool // the sink failed: read no more
	records int
}

// queued is a batch in the queue.
type queued struct {
	b        *batch
	claimed  bool // taken to be prepared
	prepared bool
}

// work prepares batches until the stream ends.
func (p *pipeline) work() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if q := p.claim(); q != nil {
			p.prepare(q)
			continue
		}
		if p.ended || p.stopped {
			return
		}
		p.cond.Wait()
	}
}

// applyAll applies the batches in file order, preparing while the next is
// not ready, until the stream ends and every batch read is applied.
func (p *pipeline) applyAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		if p.headReady() {
			b := p.queue[0].b
			p.queue[0] = nil
			p.queue = p.queue[1:]
			p.cond.Broadcast() // room for another
			p.mu.Unlock()
			failed := p.apply(b)
			p.mu.Lock()
			p.stopped = p.stopped || failed
			continue
		}
		if q := p.claim(); q != nil {
			p.prepare(q)
			continue
		}
		if len(p.queue) == 0 && (p.ended || p.stopped) {
			return
		}
		// claim lets go of p.mu while it reads, and the broadcast of the
		// head's being prepared may have come then
		if !p.headReady() {
			p.cond.Wait()
		}
	}
}

// headReady reports whether the next batch to apply is prepared.
func (p *pipeline) headReady() bool {
	return len(p.queue) > 0 && p.queue[0].prepared
}

// apply applies a prepared batch, unless the sink has failed, and lets go
// of it; it reports whether the sink has failed.
func (p *pipeline) apply(b *batch) bool {
	s := p.s
	if s.err == nil { // else drain, so every batch read is let go
		for i, l := range b.lines {
			if s.apply(p.dec, b.out[i], l.Num, l.Off); s.err != nil {
				break
			}
		}
	}
	// applied: no record of it is read again, and what the events keep
	// was copied out
	clear(b.out)
	if b.lists != nil {
		releaseLists(b.lists)
	}
	return s.err != nil
}

// claim takes a batch to prepare: one read and not yet taken, else the
// first of a chunk it reads, if the limit leaves room. p.mu is held on
// entry and on return, but not while reading, so what was true before the
// call may not be after it.
func (p *pipeline) claim() *queued {
	for _, q := range p.queue {
		if !q.claimed {
			q.claimed = true
			return q
		}
	}
	if p.ended || p.stopped || len(p.queue)+p.reading >= p.limit {
		return nil
	}
	p.reading++
	p.mu.Unlock()
	p.readMu.Lock()
	// A batch is a read chunk, or batchLines of its lines; the last batch
	// of a chunk releases it.
	lists := takeLists()
	lines, ok := p.lr.NextChunk(lists.lines[:0])
	p.mu.Lock()
	p.readMu.Unlock()
	p.reading--
	p.cond.Broadcast()
	if !ok {
		p.ended = true
		releaseLists(lists)
		return nil
	}
	p.records += len(lines)
	lists.lines, lists.out = lines, slices.Grow(lists.out[:0], len(lines))[:len(lines)]
	first := len(p.queue)
	for start := 0; ; start += batchLines {
		end := min(start+batchLines, len(lines))
		b := &batch{lines: lines[start:end], out: lists.out[start:end]}
		if end == len(lines) {
			b.lists = lists
		}
		p.queue = append(p.queue, &queued{b: b})
		if end == len(lines) {
			break
		}
	}
	p.queue[first].claimed = true
	return p.queue[first]
}

// prepare prepares a claimed batch without p.mu, which is held on entry
// and on return.
func (p *pipeline) prepare(q *queued) {
	p.mu.Unlock()
	b, s := q.b, p.s
	for i, l := range b.lines {
		b.out[i] = s.prepareRead(p.dec, l.Text, l.Last, l.OverLong, lineInChunk)
	}
	p.mu.Lock()
	q.prepared = true
	p.cond.Broadcast()
}

// streamParallel decodes the rest of the file on workers goroutines, this
// one among them; events still come out in file order.
//
// No goroutine only reads: whichever needs work reads the next chunk
// itself. This one applies the batches in file order and, while the next
// is still being prepared, prepares a later one rather than wait. With a
// reader handing chunks to workers, a worker parked whenever the reader
// was held up behind the applying goroutine, and a goroutine parked here
// takes about 55 µs to wake: the trace of one audit of the bench's session
// had one goroutine running for 40–47 ms of its 320 when it was measured.
func (s *Sink) streamParallel(lr *linereader.Reader, dec Decoder, workers int) int {
	p := &pipeline{s: s, lr: lr, dec: dec, limit: 2 * workers}
	p.cond.L = &p.mu
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(p.work)
	}
	p.applyAll()
	wg.Wait()
	return p.records
}
