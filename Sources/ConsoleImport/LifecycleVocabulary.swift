import TraceModel

/// What a lifecycle name found on a console line stands for.
enum LifecycleName: Sendable, Hashable {
    case callback(Callback)
    case app(AppTransition, isScene: Bool)
    case container(ContainerOperation)
    case swiftUI(SwiftUIEvent.Action)
}

/// The names the importer recognises, in every spelling seen in real logs: Swift (`viewWillAppear(_:)`,
/// `willMove(toParent:)`, `init(coder:)`), Objective-C selectors (`viewWillAppear:`, `initWithCoder:`,
/// `initWithNibName:bundle:`, `willMoveToParentViewController:`, `dealloc`), the pre-Swift-4.2 spellings
/// (`willMove(toParentViewController:)`), and the app, scene, presentation-controller-delegate and SwiftUI
/// names of DESIGN.md §4.
///
/// Lookup is by the leading identifier of a token, case-insensitively (`ViewDidAppear()` appears in real logs).
enum LifecycleVocabulary {
    /// Lowercased leading identifier → meaning.
    static let names: [String: LifecycleName] = {
        var table: [String: LifecycleName] = [:]
        func add(_ spellings: [String], _ name: LifecycleName) {
            for spelling in spellings { table[spelling.lowercased()] = name }
        }
        // UIViewController (Apple: UIViewController "Managing the view", "Responding to view-related events",
        // "Responding to containment events"). `init` stands for every designated initializer.
        add(["init", "initWithCoder", "initWithNibName"], .callback(.initialize))
        add(["loadView"], .callback(.loadView))
        add(["viewDidLoad"], .callback(.viewDidLoad))
        add(["viewWillAppear"], .callback(.viewWillAppear))
        add(["viewIsAppearing"], .callback(.viewIsAppearing))
        add(["viewWillLayoutSubviews"], .callback(.viewWillLayoutSubviews))
        add(["viewDidLayoutSubviews"], .callback(.viewDidLayoutSubviews))
        add(["viewDidAppear"], .callback(.viewDidAppear))
        add(["viewWillDisappear"], .callback(.viewWillDisappear))
        add(["viewDidDisappear"], .callback(.viewDidDisappear))
        add(["deinit", "dealloc"], .callback(.deinitialize))
        add(["didReceiveMemoryWarning"], .callback(.didReceiveMemoryWarning))
        add(["viewWillTransition", "viewWillTransitionToSize"], .callback(.viewWillTransition))
        add(["willMove", "willMoveToParentViewController"], .callback(.willMoveToParent))
        add(["didMove", "didMoveToParentViewController"], .callback(.didMoveToParent))
        // UIApplicationDelegate (Apple: "Managing your app's life cycle").
        add(["didFinishLaunchingWithOptions", "didFinishLaunching"], .app(.didFinishLaunching, isScene: false))
        add(["applicationWillEnterForeground"], .app(.willEnterForeground, isScene: false))
        add(["applicationDidBecomeActive"], .app(.didBecomeActive, isScene: false))
        add(["applicationWillResignActive"], .app(.willResignActive, isScene: false))
        add(["applicationDidEnterBackground"], .app(.didEnterBackground, isScene: false))
        add(["applicationWillTerminate"], .app(.willTerminate, isScene: false))
        add(["applicationDidReceiveMemoryWarning"], .app(.didReceiveMemoryWarning, isScene: false))
        // UISceneDelegate.
        add(["willConnectTo", "willConnectToSession"], .app(.willConnect, isScene: true))
        add(["sceneWillEnterForeground"], .app(.willEnterForeground, isScene: true))
        add(["sceneDidBecomeActive"], .app(.didBecomeActive, isScene: true))
        add(["sceneWillResignActive"], .app(.willResignActive, isScene: true))
        add(["sceneDidEnterBackground"], .app(.didEnterBackground, isScene: true))
        add(["sceneDidDisconnect"], .app(.didDisconnect, isScene: true))
        // UIAdaptivePresentationControllerDelegate.
        add(["presentationControllerShouldDismiss"], .container(.presentationControllerShouldDismiss))
        add(["presentationControllerWillDismiss"], .container(.presentationControllerWillDismiss))
        add(["presentationControllerDidDismiss"], .container(.presentationControllerDidDismiss))
        add(["presentationControllerDidAttemptToDismiss"], .container(.presentationControllerDidAttemptToDismiss))
        // Container calls, when an app logs them (only unambiguous spellings: a bare `present` is prose).
        add(["pushViewController"], .container(.push))
        add(["popViewController", "popViewControllerAnimated"], .container(.pop))
        add(["setViewControllers"], .container(.setViewControllers))
        add(["presentViewController"], .container(.present))
        add(["dismissViewControllerAnimated"], .container(.dismiss))
        add(["addChild", "addChildViewController"], .container(.addChild))
        add(["removeFromParent", "removeFromParentViewController"], .container(.removeFromParent))
        // SwiftUI (Apple: `onAppear(perform:)`, `onDisappear(perform:)`).
        add(["onAppear"], .swiftUI(.onAppear))
        add(["onDisappear"], .swiftUI(.onDisappear))
        return table
    }()

    /// FNV-1a over lowercased scalars, the hash `findToken` computes while it scans a word.
    static let hashBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One step of the word hash.
    @inline(__always)
    static func hash(_ hash: UInt64, _ lowercased: UInt32) -> UInt64 {
        (hash ^ UInt64(lowercased)) &* 0x0000_0100_0000_01b3
    }

    /// One key of `names` with its hash, for `slots`.
    private struct Entry {
        var hash: UInt64
        var key: [UInt8]
        var name: LifecycleName
    }

    private static let entries: [Entry] = names.map { key, name in
        Entry(hash: key.utf8.reduce(hashBasis) { hash($0, UInt32($1)) }, key: Array(key.utf8), name: name)
    }

    /// An open-addressing table over `entries` by hash (linear probing, a quarter full): the index into
    /// `entries`, or -1 for an empty slot. A plain array instead of a Dictionary: no hashing of the hash, and
    /// no generic metadata looked up at run time.
    private static let slots: [Int] = {
        var table = [Int](repeating: -1, count: slotCount)
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & (slotCount - 1)
            while table[slot] >= 0 { slot = (slot + 1) & (slotCount - 1) }
            table[slot] = index
        }
        return table
    }()
    private static let slotCount = 256

    /// Bit `n` set when some key of `names` is `n` scalars long.
    private static let lengthMask: UInt64 = names.keys.reduce(0) { $0 | (1 << UInt64(min($1.utf8.count, 63))) }

    /// The meaning of the word `chars[range]` (any case), given its length and `hash` over its lowercased
    /// scalars; `nil` when it is not a lifecycle name. Costs no allocation.
    static func name(hash value: UInt64, length: Int, _ chars: [Unicode.Scalar], _ range: Range<Int>) -> LifecycleName? {
        guard length < 64, lengthMask & (1 << UInt64(length)) != 0 else { return nil }
        var slot = Int(truncatingIfNeeded: value) & (slotCount - 1)
        while true {
            let index = slots[slot]
            guard index >= 0 else { return nil }
            if entries[index].hash == value { break }
            slot = (slot + 1) & (slotCount - 1)
        }
        let entry = entries[slots[slot]]
        guard entry.key.count == length else { return nil }
        var position = range.lowerBound
        for byte in entry.key {
            guard chars[position].asciiLowercased == UInt32(byte) else { return nil }
            position += 1
        }
        return entry.name
    }

    /// The meaning of the word `chars[range]` (any case), or `nil`.
    static func name(of chars: [Unicode.Scalar], _ range: Range<Int>) -> LifecycleName? {
        var value = hashBasis
        for index in range { value = hash(value, chars[index].asciiLowercased) }
        return name(hash: value, length: range.count, chars, range)
    }

    /// Phrases printed in words, as in `print("view will appear")`, lowercased with single spaces (a log may
    /// have several spaces between the words).
    static let phrases: [(phrase: String, callback: Callback)] = [
        ("view did load", .viewDidLoad), ("load view", .loadView), ("view will appear", .viewWillAppear),
        ("view is appearing", .viewIsAppearing), ("view did appear", .viewDidAppear),
        ("view will disappear", .viewWillDisappear), ("view did disappear", .viewDidDisappear),
        ("view will layout subviews", .viewWillLayoutSubviews), ("view did layout subviews", .viewDidLayoutSubviews),
    ]

    /// `phrases` split into words, for matching with any run of spaces between them.
    static let phraseWords: [(words: [String], callback: Callback)] = phrases
        .map { (words: $0.phrase.split(separator: " ").map(String.init), callback: $0.callback) }
}
