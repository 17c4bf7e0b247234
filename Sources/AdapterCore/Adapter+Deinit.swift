import TraceModel

// The deinit instant, before the app's own deinit body where the class is instrumented.
extension Adapter {
    /// The instrumented `dealloc` of the controller whose identity is `key` (the outermost one of its class
    /// chain): records a `deinit` interval around `original` — which runs the app's deinit body, then UIKit's
    /// teardown and the release of associated objects — and forgets the controller.
    ///
    /// Swift runs a class's `deinit` body from the class's Objective-C `dealloc`, before `super`'s, and the
    /// runtime releases associated objects last, in NSObject's dealloc (Apple, "objc_setAssociatedObject";
    /// the objc runtime's `objc_destructInstance`); so a mark the app records in its deinit body is inside this
    /// interval, where the sentinel's instant alone would come after it.
    ///
    /// Off the main thread (a controller whose last reference went away elsewhere) only `original` runs; the
    /// sentinel then records the instant (`controllerReleased(key:ref:)`).
    public func deallocate(_ key: ObjectIdentifier, original: () -> Void) {
        guard ui.isMainThread, !deallocating.contains(key), let ref = recorder.registry.ref(for: key) else {
            return original()
        }
        deallocating.insert(key)
        recorder.withCallback(.deinitialize, ref, body: original)
        deallocating.remove(key)
        active[key] = nil
        _ = recorder.registry.release(key)
    }

    /// The controller's associated-object sentinel was released (the controller is being deallocated): records a
    /// `deinit` instant and forgets the controller, unless its instrumented `dealloc` is recording the interval.
    /// Any thread (the recorder and its registry are thread-safe; adapter state is touched on the main thread only).
    public func controllerReleased(key: ObjectIdentifier, ref: ControllerRef) {
        if ui.isMainThread {
            if deallocating.contains(key) { return }
            active[key] = nil
        }
        recorder.controllerDeinit(ref, key: key)
    }
}
