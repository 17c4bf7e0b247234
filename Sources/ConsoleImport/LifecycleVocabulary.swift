import TraceModel

/// What a lifecycle name found on a console line stands for.
enum LifecycleName: Sendable, Hashable {
    case callback(Callback)
    case app(AppTransition, isScene: Bool)
    case container(ContainerOperation)
    case swiftUI(SwiftUIEvent.Action)
    /// A UIKit method the trace model has no event kind for (`awakeFromNib`, `viewWillUnload`,
    /// `navigationController(_:willShow:animated:)`): imported as a `uikit.callback` mark so it is kept, in order,
    /// with its phase and controller.
    case method(UIKitMethod)
}

/// A UIKit method as Apple spells it in Swift, and the class or protocol that declares it.
struct UIKitMethod: Sendable, Hashable {
    /// `awakeFromNib()`, `decodeRestorableState(with:)`, `navigationController(_:willShow:animated:)`.
    var name: String
    /// `UIViewController`, `UIApplicationDelegate`, `UISceneDelegate`, `UIWindowSceneDelegate`,
    /// `UINavigationControllerDelegate`, `UIAdaptivePresentationControllerDelegate`, `UIViewControllerRestoration`
    /// or `NSObject` (`awakeFromNib`).
    var owner: String

    /// Whether the method belongs to the view controller named on the line (rather than to a delegate object).
    var isControllerMethod: Bool { owner == "UIViewController" || owner == "NSObject" }
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
    static let names: [String: LifecycleName] = table.names

    /// Lowercased names that count only as a call, followed by `(` (`present(_:animated:)`,
    /// `prepare(for:sender:)`): as bare words they are prose.
    static let callOnly: Set<String> = table.callOnly

    private static let table: (names: [String: LifecycleName], callOnly: Set<String>) = {
        var table: [String: LifecycleName] = [:]
        var callOnly: Set<String> = []
        func add(_ spellings: [String], _ name: LifecycleName) {
            for spelling in spellings { table[spelling.lowercased()] = name }
        }
        func method(_ owner: String, _ name: String, _ spellings: [String], callOnly only: [String] = []) {
            add(spellings + only, .method(UIKitMethod(name: name, owner: owner)))
            for spelling in only { callOnly.insert(spelling.lowercased()) }
        }
        // UIViewController (Apple: UIViewController "Managing the view", "Responding to view-related events",
        // "Responding to containment events"). `init` stands for every designated initializer.
        add(["init", "initWithCoder", "initWithNibName"], .callback(.initialize))
        add(["loadView"], .callback(.loadView))
        add(["viewDidLoad"], .callback(.viewDidLoad))
        add(["viewWillAppear"], .callback(.viewWillAppear))
        add(["viewIsAppearing"], .callback(.viewIsAppearing))
        // Short spellings seen in logs that name the controller in words (`second vc willAppear`).
        add(["willAppear"], .callback(.viewWillAppear))
        add(["isAppearing"], .callback(.viewIsAppearing))
        add(["didAppear"], .callback(.viewDidAppear))
        add(["willDisappear"], .callback(.viewWillDisappear))
        add(["didDisappear"], .callback(.viewDidDisappear))
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
        // iOS 3–5 unloaded a hidden controller's view under memory pressure (Apple: `viewDidUnload()`,
        // deprecated in iOS 6): the view is no longer loaded, and a later viewDidLoad is legal.
        add(["viewDidUnload"], .callback(.viewDidUnload))
        // The rest of UIViewController's overridable methods (Apple: UIViewController topics), kept as marks.
        let vc = "UIViewController"
        method(vc, "viewWillUnload()", ["viewWillUnload"])
        method("NSObject", "awakeFromNib()", ["awakeFromNib"])
        method(vc, "loadViewIfNeeded()", ["loadViewIfNeeded"])
        method(vc, "encodeRestorableState(with:)", ["encodeRestorableState", "encodeRestorableStateWithCoder"])
        method(vc, "decodeRestorableState(with:)", ["decodeRestorableState", "decodeRestorableStateWithCoder"])
        method(vc, "applicationFinishedRestoringState()", ["applicationFinishedRestoringState"])
        method("UIViewControllerRestoration", "viewController(withRestorationIdentifierPath:coder:)",
               ["withRestorationIdentifierPath"])
        method(vc, "updateViewConstraints()", ["updateViewConstraints"])
        method(vc, "viewSafeAreaInsetsDidChange()", ["viewSafeAreaInsetsDidChange"])
        method(vc, "viewLayoutMarginsDidChange()", ["viewLayoutMarginsDidChange"])
        method(vc, "traitCollectionDidChange(_:)", ["traitCollectionDidChange"])
        method(vc, "willTransition(to:with:)", ["willTransitionToTraitCollection"], callOnly: ["willTransition"])
        method(vc, "preferredContentSizeDidChange(forChildContentContainer:)",
               ["preferredContentSizeDidChange", "preferredContentSizeDidChangeForChildContentContainer"])
        method(vc, "systemLayoutFittingSizeDidChange(forChildContentContainer:)",
               ["systemLayoutFittingSizeDidChange", "systemLayoutFittingSizeDidChangeForChildContentContainer"])
        method(vc, "size(forChildContentContainer:withParentContainerSize:)", ["sizeForChildContentContainer"])
        method(vc, "prepare(for:sender:)", ["prepareForSegue"], callOnly: ["prepare"])
        method(vc, "shouldPerformSegue(withIdentifier:sender:)", ["shouldPerformSegue", "shouldPerformSegueWithIdentifier"])
        method(vc, "performSegue(withIdentifier:sender:)", ["performSegue", "performSegueWithIdentifier"])
        method(vc, "unwind(for:towards:)", ["unwindForSegue"], callOnly: ["unwind"])
        method(vc, "canPerformUnwindSegueAction(_:from:sender:)", ["canPerformUnwindSegueAction"])
        method(vc, "beginAppearanceTransition(_:animated:)", ["beginAppearanceTransition"])
        method(vc, "endAppearanceTransition()", ["endAppearanceTransition"])
        method(vc, "setEditing(_:animated:)", ["setEditing"])
        method(vc, "show(_:sender:)", ["showViewController"], callOnly: ["show"])
        method(vc, "showDetailViewController(_:sender:)", ["showDetailViewController"])
        method(vc, "transition(from:to:duration:options:animations:completion:)", ["transitionFromViewController"],
               callOnly: ["transition"])
        method(vc, "updateContentUnavailableConfiguration(using:)", ["updateContentUnavailableConfiguration",
               "updateContentUnavailableConfigurationUsingState"])
        // Rotation before iOS 8 and orientation queries.
        method(vc, "willRotate(to:duration:)", ["willRotateToInterfaceOrientation"])
        method(vc, "willAnimateRotation(to:duration:)", ["willAnimateRotationToInterfaceOrientation"])
        method(vc, "didRotate(from:)", ["didRotateFromInterfaceOrientation"])
        method(vc, "shouldAutorotate", ["shouldAutorotate"])
        method(vc, "shouldAutorotate(to:)", ["shouldAutorotateToInterfaceOrientation"])
        method(vc, "supportedInterfaceOrientations", ["supportedInterfaceOrientations"])
        method(vc, "preferredInterfaceOrientationForPresentation", ["preferredInterfaceOrientationForPresentation"])
        // UIApplicationDelegate (Apple: "Managing your app's life cycle", UIApplicationDelegate topics).
        add(["didFinishLaunchingWithOptions", "didFinishLaunching", "applicationDidFinishLaunching"],
            .app(.didFinishLaunching, isScene: false))
        add(["applicationWillEnterForeground"], .app(.willEnterForeground, isScene: false))
        add(["applicationDidBecomeActive"], .app(.didBecomeActive, isScene: false))
        add(["applicationWillResignActive"], .app(.willResignActive, isScene: false))
        add(["applicationDidEnterBackground"], .app(.didEnterBackground, isScene: false))
        add(["applicationWillTerminate"], .app(.willTerminate, isScene: false))
        add(["applicationDidReceiveMemoryWarning"], .app(.didReceiveMemoryWarning, isScene: false))
        // The app delegate's scene-session methods: `AppTransition.willConnect` and `.didDisconnect` name them
        // (`applicationMethodName`).
        add(["configurationForConnecting", "configurationForConnectingSceneSession"], .app(.willConnect, isScene: false))
        add(["didDiscardSceneSessions"], .app(.didDisconnect, isScene: false))
        let app = "UIApplicationDelegate"
        method(app, "application(_:willFinishLaunchingWithOptions:)", ["willFinishLaunchingWithOptions"])
        method(app, "applicationSignificantTimeChange(_:)", ["applicationSignificantTimeChange"])
        method(app, "applicationProtectedDataWillBecomeUnavailable(_:)", ["applicationProtectedDataWillBecomeUnavailable"])
        method(app, "applicationProtectedDataDidBecomeAvailable(_:)", ["applicationProtectedDataDidBecomeAvailable"])
        method(app, "application(_:shouldSaveSecureApplicationState:)", ["shouldSaveSecureApplicationState"])
        method(app, "application(_:shouldRestoreSecureApplicationState:)", ["shouldRestoreSecureApplicationState"])
        method(app, "application(_:shouldSaveApplicationState:)", ["shouldSaveApplicationState"])
        method(app, "application(_:shouldRestoreApplicationState:)", ["shouldRestoreApplicationState"])
        method(app, "application(_:willEncodeRestorableStateWith:)", ["willEncodeRestorableStateWith", "willEncodeRestorableStateWithCoder"])
        method(app, "application(_:didDecodeRestorableStateWith:)", ["didDecodeRestorableStateWith", "didDecodeRestorableStateWithCoder"])
        // `+[Class viewControllerWithRestorationIdentifierPath:coder:]` (UIViewControllerRestoration) and the app
        // delegate's `application:viewControllerWithRestorationIdentifierPath:coder:` share the word.
        method("UIViewControllerRestoration/UIApplicationDelegate",
               "viewController(withRestorationIdentifierPath:coder:)/application(_:viewControllerWithRestorationIdentifierPath:coder:)",
               ["viewControllerWithRestorationIdentifierPath"])
        method(app, "application(_:open:options:)", ["openURL", "handleOpenURL"])
        // Spelled alike by the app delegate and the scene delegate (`application:continueUserActivity:…`,
        // `scene:continueUserActivity:`): one entry names both.
        let appOrScene = "UIApplicationDelegate/UISceneDelegate"
        method(appOrScene, "application(_:continue:restorationHandler:)/scene(_:continue:)", ["continueUserActivity"])
        method(appOrScene, "application(_:willContinueUserActivityWithType:)/scene(_:willContinueUserActivityWithType:)",
               ["willContinueUserActivityWithType"])
        method(appOrScene, "application(_:didFailToContinueUserActivityWithType:error:)/scene(_:didFailToContinueUserActivityWithType:error:)",
               ["didFailToContinueUserActivityWithType"])
        method("UIApplicationDelegate/UIWindowSceneDelegate",
               "application(_:performActionFor:completionHandler:)/windowScene(_:performActionFor:completionHandler:)",
               ["performActionForShortcutItem", "performActionFor"])
        method(app, "application(_:handleEventsForBackgroundURLSession:completionHandler:)", ["handleEventsForBackgroundURLSession"])
        method(app, "application(_:performFetchWithCompletionHandler:)", ["performFetchWithCompletionHandler"])
        method(app, "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)", ["didRegisterForRemoteNotificationsWithDeviceToken"])
        method(app, "application(_:didFailToRegisterForRemoteNotificationsWithError:)", ["didFailToRegisterForRemoteNotificationsWithError"])
        method(app, "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", ["didReceiveRemoteNotification"])
        method(app, "application(_:supportedInterfaceOrientationsFor:)", ["supportedInterfaceOrientationsFor", "supportedInterfaceOrientationsForWindow"])
        method(app, "application(_:shouldAllowExtensionPointIdentifier:)", ["shouldAllowExtensionPointIdentifier"])
        // UISceneDelegate and UIWindowSceneDelegate (Apple: UISceneDelegate topics).
        add(["willConnectTo", "willConnectToSession"], .app(.willConnect, isScene: true))
        add(["sceneWillEnterForeground"], .app(.willEnterForeground, isScene: true))
        add(["sceneDidBecomeActive"], .app(.didBecomeActive, isScene: true))
        add(["sceneWillResignActive"], .app(.willResignActive, isScene: true))
        add(["sceneDidEnterBackground"], .app(.didEnterBackground, isScene: true))
        add(["sceneDidDisconnect"], .app(.didDisconnect, isScene: true))
        let scene = "UISceneDelegate"
        method(scene, "scene(_:openURLContexts:)", ["openURLContexts"])
        method(scene, "scene(_:didUpdate:)", ["didUpdateUserActivity"])
        method(scene, "stateRestorationActivity(for:)", ["stateRestorationActivity", "stateRestorationActivityForScene"])
        method(scene, "scene(_:restoreInteractionStateWith:)", ["restoreInteractionStateWith", "restoreInteractionStateWithUserActivity"])
        let windowScene = "UIWindowSceneDelegate"
        method(windowScene, "windowScene(_:didUpdate:interfaceOrientation:traitCollection:)", ["didUpdateCoordinateSpace"])
        method(windowScene, "windowScene(_:userDidAcceptCloudKitShareWith:)", ["userDidAcceptCloudKitShareWith", "userDidAcceptCloudKitShareWithMetadata"])
        // UIAdaptivePresentationControllerDelegate (Apple: its topics).
        add(["presentationControllerShouldDismiss"], .container(.presentationControllerShouldDismiss))
        add(["presentationControllerWillDismiss"], .container(.presentationControllerWillDismiss))
        add(["presentationControllerDidDismiss"], .container(.presentationControllerDidDismiss))
        add(["presentationControllerDidAttemptToDismiss"], .container(.presentationControllerDidAttemptToDismiss))
        let adaptive = "UIAdaptivePresentationControllerDelegate"
        method(adaptive, "adaptivePresentationStyle(for:traitCollection:)",
               ["adaptivePresentationStyle", "adaptivePresentationStyleForPresentationController"])
        method(adaptive, "presentationController(_:viewControllerForAdaptivePresentationStyle:)", ["viewControllerForAdaptivePresentationStyle"])
        method(adaptive, "presentationController(_:willPresentWithAdaptiveStyle:transitionCoordinator:)", ["willPresentWithAdaptiveStyle"])
        method(adaptive, "presentationController(_:prepare:)", ["prepareAdaptivePresentationController"])
        // UINavigationControllerDelegate (Apple: its topics).
        let navigation = "UINavigationControllerDelegate"
        method(navigation, "navigationController(_:willShow:animated:)", ["willShow", "willShowViewController"])
        method(navigation, "navigationController(_:didShow:animated:)", ["didShow", "didShowViewController"])
        method(navigation, "navigationController(_:animationControllerFor:from:to:)", ["animationControllerFor", "animationControllerForOperation"])
        method(navigation, "navigationController(_:interactionControllerFor:)", ["interactionControllerFor", "interactionControllerForAnimationController"])
        method(navigation, "navigationControllerSupportedInterfaceOrientations(_:)", ["navigationControllerSupportedInterfaceOrientations"])
        method(navigation, "navigationControllerPreferredInterfaceOrientationForPresentation(_:)",
               ["navigationControllerPreferredInterfaceOrientationForPresentation"])
        // Container calls, when an app logs them: unambiguous spellings, and the Swift calls `present(…)`,
        // `dismiss(…)` followed by their parentheses (a bare `present` is prose).
        add(["pushViewController"], .container(.push))
        add(["popViewController", "popViewControllerAnimated"], .container(.pop))
        add(["setViewControllers"], .container(.setViewControllers))
        add(["presentViewController", "present"], .container(.present))
        add(["dismissViewControllerAnimated", "dismiss"], .container(.dismiss))
        callOnly.formUnion(["present", "dismiss"])
        add(["addChild", "addChildViewController"], .container(.addChild))
        add(["removeFromParent", "removeFromParentViewController"], .container(.removeFromParent))
        // SwiftUI (Apple: `onAppear(perform:)`, `onDisappear(perform:)`).
        add(["onAppear"], .swiftUI(.onAppear))
        add(["onDisappear"], .swiftUI(.onDisappear))
        return (table, callOnly)
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
        var requiresCall: Bool
    }

    private static let entries: [Entry] = names.map { key, name in
        Entry(hash: key.utf8.reduce(hashBasis) { hash($0, UInt32($1)) }, key: Array(key.utf8), name: name,
              requiresCall: callOnly.contains(key))
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
    private static let slotCount = 1024

    /// Bit `n` set when some key of `names` is `n` scalars long.
    private static let lengthMask: UInt64 = names.keys.reduce(0) { $0 | (1 << UInt64(min($1.utf8.count, 63))) }

    /// The meaning of the word `chars[range]` (any case), given its length and `hash` over its lowercased
    /// scalars; `nil` when it is not a lifecycle name, or when it is one of `callOnly` and `chars` has no `(`
    /// right after it. Costs no allocation.
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
        if entry.requiresCall, position >= chars.count || chars[position] != "(" { return nil }
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
