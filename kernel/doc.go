// Package kernel is a small context kernel in the manner of Cordis: plugin instances (fibers)
// own effects, services and listeners, and the kernel undoes all of them when an instance goes.
//
// # Modules and instances
//
// A Module (usually built with Define) is loaded through a Context: kc.Load(module, cfg). The
// result is a Fiber in one of the states Pending (an injected service is missing), Loading,
// Active, Failed, Unloading or Disposed. Apply registers everything through its kc; when Apply
// fails, what it registered is rolled back and the error is stored and returned.
//
// # Effects
//
// Listeners, services, child instances and OnDispose hooks are effects of the load that made
// them. Unloading runs them strictly in reverse registration order, one after another, each
// exactly once; errors are joined and returned. Dispose is idempotent; disposing a parent
// disposes its children. Registering through an inactive context fails with ErrInactive.
//
// # Services
//
// A Service key is declared once in a seam package. Provide is an effect; a second live provider
// is an error (ErrDuplicateService). A module listing Service.Dep() in Inject stays Pending until
// the service is provided by an Active instance, unloads back to Pending when it goes (after
// its own cleanup, during which the service is still reachable) and loads again when a provider
// returns. Get is a one-time probe that does not track.
//
// # Dispatch modes
//
//	Event[P]         emit      every live listener runs; errors (and panics, as *PanicError) joined
//	Waterfall[P, R]  waterfall first listener outermost; not calling next short-circuits; no
//	                           listener runs the caller's inner default; errors travel up
//	Bail[P, R]       bail      in order until one reports handled or fails
//	Parallel[P]      parallel  all at once; waits for all; errors joined
//
// Event.EmitContained logs listener failures instead of returning them. Async listeners of an
// Event each have a bounded queue (AsyncQueue, DefaultAsyncQueue) that EventBus fills without
// waiting for the listener, drained in emit order by one goroutine per listener; an event that
// finds the queue full is dropped, counted (Kernel.AsyncDropped) and logged; Kernel.Close waits
// for the queues. Synchronous dispatch never touches EventBus.
//
// # Order
//
// Listeners run by (band, rank, registration): Prepend listeners first, then by the rank of the
// owning instance's composition entry (Rank), then in registration order. An instance that
// reloads keeps its rank, so "first registered wins" on a SingleSlot waterfall means first in
// the composition, stably. A second live decider on a SingleSlot waterfall is logged as a
// warning naming both plugins.
//
// # Concurrency
//
// Dispatch copies nothing and locks nothing: it reads an immutable, sorted listener slice. A
// listener may emit, register or dispose. Before each listener runs, the dispatcher checks that
// the owning load is still alive, so no listener runs once its instance has begun unloading.
//
// Structural changes (load, update, dispose, provide, withdraw) are serialised: one change runs at
// a time. Reentrancy is carried by the context, not by the goroutine: while a change runs a
// context's Apply, its disposers, or its listeners in a dispatch the change started, that context
// carries the change. A request through it (kc.Load, Service.Provide, the disposers it returned),
// and Fiber.Dispose or Fiber.Update of an instance it is or owns (itself or any instance loaded
// beneath it), joins the change inline. Every other request waits for the change to end; so
// disposing or updating an unrelated instance from inside Apply would wait for that very Apply:
// do it after Apply returns, or from a goroutine. A goroutine handed kc during Apply joins the
// change too; the kernel runs its requests one at a time with the Apply's own.
//
// # Differences from Cordis
//
// Emit runs every listener and joins errors (Cordis stops at the first throw); listeners of an
// unloading instance are skipped mid-dispatch (Cordis still calls them); order comes from the
// composition rank (Cordis uses activation order, so reloads move to the end); disposers run
// sequentially (Cordis starts async disposers concurrently); there are no realms, no thisArg
// filters and no !!js config.
package kernel
