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
/// names of docs/JSONL.md.
///
/// Lookup is by the leading identifier of a token, case-insensitively (`ViewDidAppear()` appears in real logs).
enum LifecycleVocabulary {
    /// Lowercased leading identifier → meaning.
    static let names: [String: LifecycleName] = table.names

    /// Lowercased names that count only as a call, followed by `(` (`present(_:animated:)`,
    /// `prepare(for:sender:)`): as bare words they are prose.
    static let callOnly: Set<String> = table.callOnly

    /// Whole selectors, lowercased: every Swift name of a UIKit method below (`application(_:open:options:)`,
    /// `scene(_:continue:)`, `adaptivePresentationStyle(for:)`) and the Objective-C selectors whose first part
    /// two methods share (`adaptivePresentationStyleForPresentationController:traitCollection:`). They name the
    /// method when its first word is generic (`application`, `scene`) or begins two methods' names; a selector
    /// is tried before the word it starts with (`selector(hash:_:_:)`).
    static let selectors: [String: LifecycleName] = table.selectors

    /// `hash` of each selector's first word, lowercased (`application`, `scene`, `presentationcontroller`).
    private static let selectorHeads: Set<UInt64> = Set(selectors.keys.map { key in
        key.unicodeScalars.prefix { $0 != "(" && $0 != ":" }.reduce(hashBasis) { hash($0, $1.value) }
    })

    private static let table: (names: [String: LifecycleName], callOnly: Set<String>, selectors: [String: LifecycleName]) = {
        var table: [String: LifecycleName] = [:]
        var callOnly: Set<String> = []
        var selectors: [String: LifecycleName] = [:]
        func add(_ spellings: [String], _ name: LifecycleName) {
            for spelling in spellings { table[spelling.lowercased()] = name }
        }
        /// A method kept as a `uikit.callback` mark. `name` is its Swift name, or the names of the methods that
        /// share its spellings separated by `/` (each with the owner in the same place of `owner`); `spellings`
        /// the words that name it; `objectiveC` whole Objective-C selectors that tell it from a method whose
        /// selector begins the same.
        func method(_ owner: String, _ name: String, _ spellings: [String], callOnly only: [String] = [], objectiveC: [String] = []) {
            let method = LifecycleName.method(UIKitMethod(name: name, owner: owner))
            add(spellings + only, method)
            for spelling in only { callOnly.insert(spelling.lowercased()) }
            let names = name.split(separator: "/"), owners = owner.split(separator: "/")
            for (index, swiftName) in names.enumerated() where swiftName.contains("(") {
                let single = names.count == owners.count ? UIKitMethod(name: String(swiftName), owner: String(owners[index])) : UIKitMethod(name: name, owner: owner)
                selectors[swiftName.lowercased()] = .method(single)
            }
            // An Objective-C selector names the method whose Swift name starts with the same word
            // (`scene:continueUserActivity:` is `scene(_:continue:)`).
            for selector in objectiveC {
                let head = selector.prefix { $0 != ":" }
                if names.count == owners.count, let index = names.firstIndex(where: { $0.prefix { $0 != "(" } == head }) {
                    selectors[selector.lowercased()] = .method(UIKitMethod(name: String(names[index]), owner: String(owners[index])))
                } else {
                    selectors[selector.lowercased()] = method
                }
            }
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
        // Split view controllers collapse and separate their children through these (Apple: UIViewController,
        // "Adapting to a split view controller").
        method(vc, "collapseSecondaryViewController(_:for:)", ["collapseSecondaryViewController"])
        method(vc, "separateSecondaryViewController(for:)", ["separateSecondaryViewController", "separateSecondaryViewControllerForSplitViewController"])
        method(vc, "targetViewController(forAction:sender:)", ["targetViewControllerForAction"])
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
        method(app, "application(_:open:options:)", ["openURL"])
        method(app, "application(_:open:sourceApplication:annotation:)", [],
               objectiveC: ["application:openURL:sourceApplication:annotation:"])
        method(app, "application(_:handleOpen:)", ["handleOpenURL"])
        // Spelled alike by the app delegate and the scene delegate (`application:continueUserActivity:…`,
        // `scene:continueUserActivity:`): the word names both, the whole selector one.
        let appOrScene = "UIApplicationDelegate/UISceneDelegate"
        method(appOrScene, "application(_:continue:restorationHandler:)/scene(_:continue:)", ["continueUserActivity"],
               objectiveC: ["application:continueUserActivity:restorationHandler:", "scene:continueUserActivity:"])
        method(appOrScene, "application(_:willContinueUserActivityWithType:)/scene(_:willContinueUserActivityWithType:)",
               ["willContinueUserActivityWithType"],
               objectiveC: ["application:willContinueUserActivityWithType:", "scene:willContinueUserActivityWithType:"])
        method(appOrScene, "application(_:didFailToContinueUserActivityWithType:error:)/scene(_:didFailToContinueUserActivityWithType:error:)",
               ["didFailToContinueUserActivityWithType"],
               objectiveC: ["application:didFailToContinueUserActivityWithType:error:", "scene:didFailToContinueUserActivityWithType:error:"])
        method(appOrScene, "application(_:didUpdate:)/scene(_:didUpdate:)", ["didUpdateUserActivity"],
               objectiveC: ["application:didUpdateUserActivity:", "scene:didUpdateUserActivity:"])
        let appOrWindowScene = "UIApplicationDelegate/UIWindowSceneDelegate"
        method(appOrWindowScene, "application(_:performActionFor:completionHandler:)/windowScene(_:performActionFor:completionHandler:)",
               ["performActionForShortcutItem", "performActionFor"],
               objectiveC: ["application:performActionForShortcutItem:completionHandler:", "windowScene:performActionForShortcutItem:completionHandler:"])
        method(appOrWindowScene, "application(_:userDidAcceptCloudKitShareWith:)/windowScene(_:userDidAcceptCloudKitShareWith:)",
               ["userDidAcceptCloudKitShareWith", "userDidAcceptCloudKitShareWithMetadata"],
               objectiveC: ["application:userDidAcceptCloudKitShareWithMetadata:", "windowScene:userDidAcceptCloudKitShareWithMetadata:"])
        method(app, "application(_:handlerFor:)", ["handlerForIntent"])
        method(app, "application(_:handle:completionHandler:)", ["handleIntent"])
        method(app, "application(_:handleWatchKitExtensionRequest:reply:)", ["handleWatchKitExtensionRequest"])
        method(app, "applicationShouldRequestHealthAuthorization(_:)", ["applicationShouldRequestHealthAuthorization"])
        // Deprecated app-delegate methods still seen in older logs.
        method(app, "application(_:didReceive:)", ["didReceiveLocalNotification"])
        method(app, "application(_:didRegister:)", ["didRegisterUserNotificationSettings"])
        method(app, "application(_:willChangeStatusBarOrientation:duration:)", ["willChangeStatusBarOrientation"])
        method(app, "application(_:didChangeStatusBarOrientation:)", ["didChangeStatusBarOrientation"])
        method(app, "application(_:willChangeStatusBarFrame:)", ["willChangeStatusBarFrame"])
        method(app, "application(_:didChangeStatusBarFrame:)", ["didChangeStatusBarFrame"])
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
        method(scene, "stateRestorationActivity(for:)", ["stateRestorationActivity", "stateRestorationActivityForScene"])
        method(scene, "scene(_:restoreInteractionStateWith:)", ["restoreInteractionStateWith", "restoreInteractionStateWithUserActivity"])
        let windowScene = "UIWindowSceneDelegate"
        method(windowScene, "windowScene(_:didUpdate:interfaceOrientation:traitCollection:)", ["didUpdateCoordinateSpace"])
        // UIAdaptivePresentationControllerDelegate (Apple: its topics).
        add(["presentationControllerShouldDismiss"], .container(.presentationControllerShouldDismiss))
        add(["presentationControllerWillDismiss"], .container(.presentationControllerWillDismiss))
        add(["presentationControllerDidDismiss"], .container(.presentationControllerDidDismiss))
        add(["presentationControllerDidAttemptToDismiss"], .container(.presentationControllerDidAttemptToDismiss))
        let adaptive = "UIAdaptivePresentationControllerDelegate"
        // `adaptivePresentationStyle(for:)` and `adaptivePresentationStyle(for:traitCollection:)` share their
        // first word: the word alone is the first, the whole selector tells the second.
        method(adaptive, "adaptivePresentationStyle(for:)", ["adaptivePresentationStyle", "adaptivePresentationStyleForPresentationController"])
        method(adaptive, "adaptivePresentationStyle(for:traitCollection:)", [],
               objectiveC: ["adaptivePresentationStyleForPresentationController:traitCollection:"])
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
        return (table, callOnly, selectors)
    }()

    /// FNV-1a over lowercased scalars: the hash of a word (`hash(of:_:)`) by which `names` is looked up.
    static let hashBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// One step of the word hash.
    @inline(__always)
    static func hash(_ hash: UInt64, _ lowercased: UInt32) -> UInt64 {
        (hash ^ UInt64(lowercased)) &* 0x0000_0100_0000_01b3
    }

    /// The hash of the lowercased scalars of `chars[range]`.
    @inline(__always)
    static func hash(of chars: LineChars, _ range: Range<Int>) -> UInt64 {
        var value = hashBasis
        for index in range { value = hash(value, chars[index].asciiLowercased) }
        return value
    }

    /// For each ASCII scalar, bit `n` set when some key of `names` or first word of a selector starts with it
    /// and is `n` scalars long (`n` up to 63, longer ones at 63). Every key is ASCII and lowercase.
    private static let startsAndLengths: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 128)
        let heads = selectors.keys.map { $0.prefix { $0 != "(" && $0 != ":" } }
        for key in names.keys.map({ $0[...] }) + heads {
            guard let first = key.utf8.first, first < 0x80 else { continue }
            table[Int(first)] |= 1 << UInt64(min(key.utf8.count, 63))
        }
        return table
    }()

    /// Whether a word that starts with `first` and is `length` scalars long can be a key of `names` or the first
    /// word of a selector (any case): most words of a line are not, and are never hashed.
    @inline(__always)
    static func mayBeName(first: Unicode.Scalar, length: Int) -> Bool {
        let lowercased = first.asciiLowercased
        return lowercased < 0x80 && startsAndLengths[Int(lowercased)] & (1 << UInt64(min(length, 63))) != 0
    }

    /// One key of `names` with its hash, for `slots`: plain values, so a lookup copies no reference.
    private struct Entry {
        var hash: UInt64
        /// Where the key's bytes are in `keyBytes`.
        var keyStart: Int
        var keyLength: Int
        var requiresCall: Bool
    }

    /// The keys of `names`, their bytes end to end, and their meanings, in the order of `entries`.
    private static let (entries, keyBytes, meanings): ([Entry], [UInt8], [LifecycleName]) = {
        var entries: [Entry] = []
        var bytes: [UInt8] = []
        var meanings: [LifecycleName] = []
        for (key, name) in names {
            entries.append(Entry(hash: key.utf8.reduce(hashBasis) { hash($0, UInt32($1)) }, keyStart: bytes.count,
                                 keyLength: key.utf8.count, requiresCall: callOnly.contains(key)))
            bytes.append(contentsOf: key.utf8)
            meanings.append(name)
        }
        return (entries, bytes, meanings)
    }()

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

    /// The meaning of the word `chars[range]` (any case), given its length and `hash` over its lowercased
    /// scalars; `nil` when it is not a lifecycle name, or when it is one of `callOnly` and `chars` has no `(`
    /// right after it. Costs no allocation.
    static func name(hash value: UInt64, length: Int, _ chars: LineChars, _ range: Range<Int>) -> LifecycleName? {
        var slot = Int(truncatingIfNeeded: value) & (slotCount - 1)
        var index = slots[slot]
        while index >= 0, entries[index].hash != value {
            slot = (slot + 1) & (slotCount - 1)
            index = slots[slot]
        }
        guard index >= 0 else { return nil }
        let entry = entries[index]
        guard entry.keyLength == length else { return nil }
        for offset in 0..<length {
            guard chars[range.lowerBound + offset].asciiLowercased == UInt32(keyBytes[entry.keyStart + offset]) else { return nil }
        }
        let after = range.lowerBound + length
        if entry.requiresCall, after >= chars.count || chars[after] != "(" { return nil }
        return meanings[index]
    }

    /// The method named by the whole selector that starts with the word `chars[word]` (hashed as `name(hash:…)`
    /// hashes it): a Swift name, `application(_:open:options:)` (labels and colons only between the
    /// parentheses), or an Objective-C selector, `application:openURL:options:` (parts up to the last colon).
    /// `nil` when the word starts no selector of `selectors` or the text after it is not one. Allocates only
    /// for a word that starts a selector.
    static func selector(hash value: UInt64, _ chars: LineChars, _ word: Range<Int>) -> LifecycleName? {
        let end = word.upperBound
        guard end < chars.count, chars[end] == "(" || chars[end] == ":", selectorHeads.contains(value) else { return nil }
        var key = String.UnicodeScalarView()
        for index in word { key.append(Unicode.Scalar(chars[index].asciiLowercased) ?? chars[index]) }
        let isSwift = chars[end] == "("
        var index = end
        var lastColon = 0
        let limit = min(chars.count, end + 160)
        while index < limit {
            let scalar = chars[index]
            if isSwift {
                key.append(Unicode.Scalar(scalar.asciiLowercased) ?? scalar)
                if scalar == ")" { return selectors[String(key)] }
                guard index == end || scalar == ":" || scalar.isIdentifierCharacter else { return nil }
            } else {
                guard scalar == ":" || scalar.isIdentifierCharacter else { break }
                key.append(Unicode.Scalar(scalar.asciiLowercased) ?? scalar)
                if scalar == ":" { lastColon = key.count }
            }
            index += 1
        }
        guard !isSwift else { return nil }
        return selectors[String(String.UnicodeScalarView(key.prefix(lastColon)))]
    }

    /// The meaning of the word `chars[range]` (any case), or `nil`.
    static func name(of chars: LineChars, _ range: Range<Int>) -> LifecycleName? {
        guard !range.isEmpty, mayBeName(first: chars[range.lowerBound], length: range.count) else { return nil }
        return name(hash: hash(of: chars, range), length: range.count, chars, range)
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
