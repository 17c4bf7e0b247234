import TraceModel

// Page scrolls of a UIPageViewController, inferred from its pages' appearance callbacks: a scroll gesture
// drives a scroll view, not a transition coordinator, and its delegate methods belong to the app.
//
// The order (docs/RECORDING.md; DESIGN's "UIPageViewController scroll" row, real log 07): New.viewWillAppear,
// Cur.viewWillDisappear, then New.viewDidAppear, Cur.viewDidDisappear (finished) or Cur.viewWillAppear,
// Cur.viewDidAppear, New.viewWillDisappear, New.viewDidDisappear (cancelled).
extension Adapter {
    /// Before an appearance callback of `controller`: if its parent is a page controller, begins, finishes or
    /// cancels the page scroll it shows. Not inside the page controller's own `setViewControllers`.
    func inferPageScroll(_ controller: UI.Controller, _ ref: ControllerRef, _ callback: Callback) {
        guard let parent = ui.parent(of: controller), let pages = ui.pages(of: parent) else { return }
        let pagesKey = ObjectIdentifier(parent)
        guard settingPages[pagesKey] == nil else { return }
        let key = ObjectIdentifier(controller)
        if let scroll = pageScrolls[pagesKey] {
            switch callback {
            case .viewDidAppear where scroll.toKey == key:
                recorder.interactiveTransitionFinished(from: scroll.from, to: scroll.to, in: scroll.container)
                pageScrolls[pagesKey] = nil
            case .viewWillAppear where scroll.fromKey == key, .viewDidDisappear where scroll.toKey == key:
                recorder.interactiveTransitionCancelled(from: scroll.from, to: scroll.to, in: scroll.container)
                pageScrolls[pagesKey] = nil
            default:
                break
            }
        } else if callback == .viewWillAppear, let current = pages.first, current !== controller {
            let scroll = PageScroll(
                container: self.ref(for: parent), from: self.ref(for: current), fromKey: ObjectIdentifier(current),
                to: ref, toKey: key)
            pageScrolls[pagesKey] = scroll
            recorder.interactiveTransitionBegan(from: scroll.from, to: scroll.to, in: scroll.container)
        }
    }
}
