// The built-in table from an app's name to an app kind of the phone workloads (PhoneUser.iOS4Kinds:
// messaging, social, news, browser, game, utility, media, music, navigation, voip) or to the home
// screen. docs/usage-logs.md ("From an app name to a kind") explains it.
//
// How a kind is chosen. The source is the app's category on Google Play, the store's own
// classification, at play.google.com/store/apps/details?id=PACKAGE (the category is printed under
// the app's name; the categories of the display names below are those of the same apps). A
// category becomes a kind by this rule:
//
//   Communication ............................ messaging
//   Social ................................... social
//   News & Magazines ......................... news
//   Video Players & Editors, Entertainment,
//   Photography, Comics ...................... media
//   Music & Audio ............................ music
//   Maps & Navigation, Travel & Local ........ navigation
//   any game category (Action, Casual, Board,
//   Puzzle, Arcade, Strategy, …) ............. game
//   Tools, Productivity, Business, Finance,
//   Shopping, Education, Health & Fitness,
//   Weather, Food & Drink, Lifestyle,
//   Books & Reference ........................ utility
//
// with three exceptions by what the app does, since Play files them under Communication or
// Tools: web browsers (Chrome, Firefox, Samsung Internet, Opera) and the Google search app are
// `browser`; the phone's dialer and in-call screen are `voip` (a call); work chat and mail filed
// under Business or Productivity (Slack, Outlook) are `messaging`.
//
// The categories were written from the store's listings as they stood in 2024; they could not be
// re-fetched on the machine that wrote this table (it has no network), so an entry's category is
// worth checking at the address above before a figure leans on it. For the apps of the viz-habits
// exports, its data/categories.json (below) is a second, dated source.
//
// An app that is not on Google Play (a phone maker's own app, a modified app) is given the kind of
// the Play app it stands in for, and the comment says which. The categories of 2019 for the
// display names of the App Usage exports are also listed, in French, in the viz-habits project's
// data/categories.json (github.com/abardou/viz-habits, fetched from Google Play by its
// pyprocessing/get_app_categories.py); where it and today's store differ, the comment says so.
//
// The home screen (role `home`): the system's own processes, which the user does not open as an
// app — launchers (Android's `android.intent.category.HOME` activities), System UI (the status
// bar and notification shade), input methods (keyboards drawn over the app), the package
// installer, and the apps that collect the log (the App Usage app itself; next-app-prediction's
// collector `com.example.nextapp`, github.com/shogunishere/next-app-prediction, branch master,
// app/src/main/AndroidManifest.xml).

extension AppKindTable {
    /// The documented table (its sources are in the comments of `AppKindTable+BuiltIn.swift` and
    /// in docs/usage-logs.md): about 200 common Android packages and the display names of the
    /// same apps (English and French), plus patterns such as `*.game.*` and `*.launcher`.
    public static let builtIn = AppKindTable(builtInEntries.map { Entry($0.0, AppRole($0.1)) })

    /// The kinds the built-in table uses besides `home`: the names of ``PhoneUser/iOS4Kinds``.
    public static let builtInKinds = [
        "messaging", "social", "news", "browser", "game", "utility", "media", "music", "navigation", "voip",
    ]

    static let builtInEntries: [(String, String)] = [
        // MARK: The home screen: launchers, System UI, keyboards, installers, collectors.
        ("android", "home"),  // the system process itself
        ("com.android.systemui", "home"),  // System UI
        ("System UI", "home"),
        ("IU syst.", "home"),  // System UI, as a French export abbreviates it
        ("IU système", "home"),
        ("com.android.launcher", "home"),
        ("com.android.launcher2", "home"),
        ("com.android.launcher3", "home"),  // AOSP Launcher3
        ("com.google.android.apps.nexuslauncher", "home"),  // Pixel Launcher
        ("Pixel Launcher", "home"),
        ("com.sec.android.app.launcher", "home"),  // Samsung One UI Home
        ("One UI Home", "home"),
        ("com.huawei.android.launcher", "home"),  // Huawei Home
        ("com.miui.home", "home"),  // Xiaomi System launcher
        ("net.oneplus.launcher", "home"),  // OnePlus Launcher
        ("com.oppo.launcher", "home"),
        ("com.teslacoilsw.launcher", "home"),  // Nova Launcher (Play: Personalization; a launcher)
        ("com.microsoft.launcher", "home"),  // Microsoft Launcher (a launcher)
        ("*.launcher", "home"),
        ("*.launcher3", "home"),
        ("com.google.android.inputmethod.latin", "home"),  // Gboard, a keyboard
        ("com.samsung.android.honeyboard", "home"),  // Samsung Keyboard
        ("com.touchtype.swiftkey", "home"),  // Microsoft SwiftKey, a keyboard
        ("com.android.packageinstaller", "home"),
        ("com.google.android.packageinstaller", "home"),
        ("Package installer", "home"),
        ("Programme d'installation du kit", "home"),  // the package installer, in French
        ("App Usage", "home"),  // the collector of the App Usage exports
        ("com.a0soft.gphone.uninstaller", "home"),  // App Usage's package
        ("com.example.nextapp", "home"),  // next-app-prediction's collector

        // MARK: messaging (Play: Communication; mail and work chat by function).
        ("com.whatsapp", "messaging"), ("WhatsApp", "messaging"),
        ("com.whatsapp.w4b", "messaging"), ("WhatsApp Business", "messaging"),
        ("com.facebook.orca", "messaging"), ("Messenger", "messaging"),
        ("com.facebook.mlite", "messaging"), ("Messenger Lite", "messaging"),
        ("org.telegram.messenger", "messaging"), ("Telegram", "messaging"),
        ("org.thoughtcrime.securesms", "messaging"), ("Signal", "messaging"),
        ("com.snapchat.android", "messaging"), ("Snapchat", "messaging"),  // Play: Communication
        ("com.discord", "messaging"), ("Discord", "messaging"),
        ("com.Slack", "messaging"), ("Slack", "messaging"),  // Play: Business; work chat
        ("com.microsoft.teams", "messaging"), ("Microsoft Teams", "messaging"), ("Teams", "messaging"),  // Business
        ("com.google.android.gm", "messaging"), ("Gmail", "messaging"),
        ("com.microsoft.office.outlook", "messaging"), ("Outlook", "messaging"),  // Play: Productivity; mail
        ("com.samsung.android.email.provider", "messaging"), ("Email", "messaging"),  // Samsung Email
        ("com.google.android.apps.messaging", "messaging"), ("Messages", "messaging"),
        ("com.samsung.android.messaging", "messaging"),  // Samsung Messages, as Google Messages
        ("com.android.mms", "messaging"), ("SMS/MMS", "messaging"),  // the AOSP and Huawei SMS app
        ("com.google.android.apps.googlevoice", "messaging"),
        ("com.skype.raider", "messaging"), ("Skype", "messaging"),
        ("com.viber.voip", "messaging"), ("Viber", "messaging"),
        ("jp.naver.line.android", "messaging"), ("LINE", "messaging"),
        ("com.tencent.mm", "messaging"), ("WeChat", "messaging"),
        ("com.kakao.talk", "messaging"), ("KakaoTalk", "messaging"),
        ("com.google.android.contacts", "messaging"), ("Contacts", "messaging"),  // Play: Communication
        ("com.samsung.android.contacts", "messaging"),  // Samsung Contacts, as Google Contacts

        // MARK: voip: the phone's dialer and call screen (Play: Communication; a call).
        ("com.google.android.dialer", "voip"), ("Phone", "voip"), ("Téléphone", "voip"), ("Appel", "voip"),
        ("com.samsung.android.dialer", "voip"), ("com.android.dialer", "voip"),
        ("com.samsung.android.incallui", "voip"), ("com.android.incallui", "voip"),
        ("com.android.server.telecom", "voip"),
        ("us.zoom.videomeetings", "voip"), ("Zoom", "voip"),  // Play: Business; calls
        ("com.google.android.apps.tachyon", "voip"), ("Meet", "voip"), ("Duo", "voip"),  // Communication; calls

        // MARK: social (Play: Social).
        ("com.facebook.katana", "social"), ("Facebook", "social"),
        ("com.facebook.lite", "social"), ("Facebook Lite", "social"),
        ("com.instagram.android", "social"), ("Instagram", "social"),
        ("com.zhiliaoapp.musically", "social"), ("TikTok", "social"),
        ("com.ss.android.ugc.trill", "social"),  // TikTok's other package
        ("com.reddit.frontpage", "social"), ("Reddit", "social"),  // Social today; News & Magazines in 2019
        ("com.pinterest", "social"), ("Pinterest", "social"),
        ("com.linkedin.android", "social"), ("LinkedIn", "social"),  // Play: Business; a social network
        ("com.bereal.ft", "social"), ("BeReal", "social"),
        ("com.tumblr", "social"), ("Tumblr", "social"),
        ("com.instagram.barcelona", "social"), ("Threads", "social"),
        ("com.vkontakte.android", "social"), ("VK", "social"),

        // MARK: news (Play: News & Magazines).
        ("com.twitter.android", "news"), ("Twitter", "news"), ("X", "news"),
        ("com.google.android.apps.magazines", "news"), ("Google News", "news"), ("Google Actualités", "news"),
        ("flipboard.app", "news"), ("Flipboard", "news"),
        ("com.quora.android", "news"), ("Quora", "news"),  // News & Magazines in 2019 (viz-habits)
        ("de.axelspringer.yana", "news"), ("upday", "news"),
        ("bbc.mobile.news.ww", "news"), ("BBC News", "news"),
        ("com.nytimes.android", "news"), ("NYTimes", "news"),
        ("com.microsoft.amp.apps.bingnews", "news"),
        ("fr.lemonde.android", "news"), ("Le Monde", "news"),

        // MARK: browser (Play: Communication or Tools; a web browser by function).
        ("com.android.chrome", "browser"), ("Chrome", "browser"),
        ("org.mozilla.firefox", "browser"), ("Firefox", "browser"),
        ("org.mozilla.focus", "browser"), ("Firefox Focus", "browser"),
        ("org.mozilla.klar", "browser"),
        ("com.sec.android.app.sbrowser", "browser"), ("Samsung Internet", "browser"),
        ("com.opera.browser", "browser"), ("Opera", "browser"),
        ("com.opera.mini.native", "browser"), ("Opera Mini", "browser"),
        ("com.brave.browser", "browser"), ("Brave", "browser"),
        ("com.microsoft.emmx", "browser"), ("Edge", "browser"),
        ("com.duckduckgo.mobile.android", "browser"), ("DuckDuckGo", "browser"),
        ("com.UCMobile.intl", "browser"), ("UC Browser", "browser"),
        ("com.huawei.browser", "browser"),  // Huawei Browser
        ("com.google.android.googlequicksearchbox", "browser"), ("Google", "browser"),  // Play: Tools; web search

        // MARK: media (Play: Video Players & Editors, Entertainment, Photography).
        ("com.google.android.youtube", "media"), ("YouTube", "media"),
        ("com.netflix.mediaclient", "media"), ("Netflix", "media"),
        ("com.amazon.avod.thirdpartyclient", "media"), ("Prime Video", "media"),
        ("com.disney.disneyplus", "media"), ("Disney+", "media"),
        ("tv.twitch.android.app", "media"), ("Twitch", "media"),
        ("com.google.android.apps.youtube.kids", "media"), ("YouTube Kids", "media"),
        ("com.vanced.android.youtube", "media"),  // a modified YouTube, not on Play: as YouTube
        ("app.revanced.android.youtube", "media"),  // as YouTube
        ("com.google.android.apps.photos", "media"), ("Photos", "media"),
        ("com.sec.android.gallery3d", "media"), ("Gallery", "media"), ("Galerie", "media"),  // Samsung Gallery
        ("com.huawei.photos", "media"), ("com.miui.gallery", "media"),  // phone makers' galleries
        ("com.google.android.GoogleCamera", "media"), ("Camera", "media"), ("Caméra", "media"),
        ("Appareil photo", "media"),  // Camera, in French
        ("com.sec.android.app.camera", "media"), ("com.huawei.camera", "media"),  // makers' cameras
        ("com.android.camera", "media"), ("com.android.camera2", "media"),
        ("com.webtoons.android", "media"), ("WEBTOON", "media"),  // Play: Comics; read as media
        ("com.plexapp.android", "media"), ("Plex", "media"),
        ("org.videolan.vlc", "media"), ("VLC", "media"),

        // MARK: music (Play: Music & Audio).
        ("com.spotify.music", "music"), ("Spotify", "music"),
        ("com.google.android.apps.youtube.music", "music"), ("YouTube Music", "music"),
        ("com.vanced.android.apps.youtube.music", "music"),  // a modified YouTube Music: as YouTube Music
        ("app.revanced.android.apps.youtube.music", "music"),
        ("com.google.android.music", "music"), ("Google Play Music", "music"),
        ("deezer.android.app", "music"), ("Deezer", "music"),
        ("com.soundcloud.android", "music"), ("SoundCloud", "music"),
        ("com.shazam.android", "music"), ("Shazam", "music"),
        ("com.aimp.player", "music"), ("AIMP", "music"),
        ("com.kodarkooperativet.blackplayerfree", "music"), ("BlackPlayer", "music"),
        ("com.amazon.mp3", "music"), ("Amazon Music", "music"),
        ("com.apple.android.music", "music"), ("Apple Music", "music"),
        ("com.audible.application", "music"), ("Audible", "music"),
        ("com.google.android.apps.podcasts", "music"), ("Google Podcasts", "music"),
        ("com.sec.android.app.voicenote", "music"), ("Recorder", "music"),  // Samsung Voice Recorder

        // MARK: navigation (Play: Maps & Navigation, Travel & Local).
        ("com.google.android.apps.maps", "navigation"), ("Maps", "navigation"), ("Google Maps", "navigation"),
        ("com.waze", "navigation"), ("Waze", "navigation"),
        ("com.citymapper.app.release", "navigation"), ("Citymapper", "navigation"),
        ("com.ubercab", "navigation"), ("Uber", "navigation"),
        ("com.olacabs.customer", "navigation"), ("OlaCabs", "navigation"), ("Ola", "navigation"),
        ("com.lyft.android", "navigation"), ("Lyft", "navigation"),
        ("com.here.app.maps", "navigation"), ("HERE WeGo", "navigation"),
        ("net.osmand", "navigation"), ("OsmAnd", "navigation"),
        ("com.sygic.aura", "navigation"),
        ("com.jcdecaux.vls.ljubljana", "navigation"),  // Ljubljana's bike share (JCDecaux): Travel & Local
        ("Vélo'v officiel", "navigation"),  // Lyon's bike share: Travel & Local (viz-habits)
        ("com.lime.citybike", "navigation"), ("Lime", "navigation"),
        ("TCL", "navigation"),  // Lyon's public transport app: Maps & Navigation (viz-habits)
        ("com.booking", "navigation"), ("Booking.com", "navigation"),
        ("com.airbnb.android", "navigation"), ("Airbnb", "navigation"),

        // MARK: game (any Play game category).
        ("com.supercell.*", "game"),  // Supercell publishes only games (Brawl Stars: Action)
        ("Brawl Stars", "game"), ("Clash of Clans", "game"), ("Clash Royale", "game"), ("Hay Day", "game"),
        ("com.king.*", "game"),  // King publishes only games (Candy Crush Saga: Casual)
        ("Candy Crush Saga", "game"),
        ("com.rovio.*", "game"),  // Rovio: Angry Birds (Casual)
        ("com.mojang.minecraftpe", "game"), ("Minecraft", "game"),
        ("com.roblox.client", "game"), ("Roblox", "game"),
        ("com.tencent.ig", "game"), ("PUBG MOBILE", "game"),
        ("com.activision.callofduty.shooter", "game"),
        ("com.innersloth.spacemafia", "game"), ("Among Us", "game"),
        ("com.dts.freefireth", "game"), ("Free Fire", "game"),
        ("com.miHoYo.GenshinImpact", "game"), ("Genshin Impact", "game"),
        ("com.nianticlabs.pokemongo", "game"), ("Pokémon GO", "game"),
        ("org.lichess.mobileapp", "game"), ("lichess", "game"),  // Play: Board
        ("com.chess", "game"), ("Chess", "game"),
        ("Really Bad Chess", "game"),  // Play: Board
        ("io.voodoo.paper2", "game"), ("Paper.io 2", "game"),  // Play: Casual
        ("com.crater.bbtan", "game"), ("BBTAN", "game"),  // Play: Casual
        ("Dofus Pets", "game"), ("Line Driver", "game"), ("Draw", "game"),  // viz-habits: games
        ("*.game.*", "game"),
        ("*.games.*", "game"),
        ("*.game", "game"),
        ("com.gameloft.*", "game"),  // Gameloft publishes only games
        ("com.ea.*", "game"),  // Electronic Arts' Android games
        ("com.zynga.*", "game"),

        // MARK: utility (Play: Tools, Productivity, Business, Finance, Shopping, …).
        ("com.android.settings", "utility"), ("Settings", "utility"), ("Paramètres", "utility"),  // system settings
        ("com.android.settings.intelligence", "utility"),  // the settings' search
        ("com.android.vending", "utility"), ("Google Play Store", "utility"), ("Play Store", "utility"),
        ("com.google.android.gms", "utility"), ("Google Play services", "utility"),
        ("com.google.android.deskclock", "utility"), ("Clock", "utility"), ("Horloge", "utility"),
        ("com.sec.android.app.clockpackage", "utility"), ("com.oneplus.deskclock", "utility"),  // makers' clocks
        ("com.android.deskclock", "utility"),
        ("com.google.android.calculator", "utility"), ("Calculator", "utility"), ("Calculatrice", "utility"),
        ("com.sec.android.app.popupcalculator", "utility"),
        ("com.google.android.calendar", "utility"), ("Calendar", "utility"), ("Agenda", "utility"),
        ("com.samsung.android.calendar", "utility"),
        ("com.google.android.keep", "utility"), ("Keep Notes", "utility"), ("Notes Keep", "utility"),
        ("Notes", "utility"), ("com.samsung.android.app.notes", "utility"), ("com.oneplus.note", "utility"),
        ("com.example.android.notepad", "utility"),  // the Android SDK's notepad sample
        ("com.google.android.apps.docs", "utility"), ("Drive", "utility"),
        ("com.google.android.apps.docs.editors.docs", "utility"), ("Docs", "utility"),
        ("com.google.android.apps.docs.editors.sheets", "utility"), ("Sheets", "utility"),
        ("com.google.android.apps.docs.editors.slides", "utility"), ("Slides", "utility"),
        ("com.microsoft.office.word", "utility"), ("Word", "utility"),
        ("com.microsoft.office.excel", "utility"), ("Excel", "utility"),
        ("com.microsoft.office.powerpoint", "utility"), ("PowerPoint", "utility"),
        ("com.microsoft.office.officehubrow", "utility"), ("Office", "utility"),
        ("cn.wps.moffice_eng", "utility"), ("WPS Office", "utility"),
        ("com.google.android.apps.nbu.files", "utility"), ("Files", "utility"),
        ("com.sec.android.app.myfiles", "utility"), ("Mes fichiers", "utility"), ("My Files", "utility"),
        ("com.huawei.filemanager", "utility"), ("File Manager", "utility"),
        ("com.google.android.apps.authenticator2", "utility"), ("Google Authenticator", "utility"),
        ("com.x8bit.bitwarden", "utility"), ("Bitwarden", "utility"),
        ("com.openai.chatgpt", "utility"), ("ChatGPT", "utility"),  // Play: Productivity
        ("com.fitbit.FitbitMobile", "utility"), ("Fitbit", "utility"),  // Health & Fitness
        ("com.strava", "utility"), ("Strava", "utility"),
        ("com.duolingo", "utility"), ("Duolingo", "utility"),  // Education
        ("com.amazon.mShop.android.shopping", "utility"), ("Amazon Shopping", "utility"),
        ("Boutique Amazon", "utility"),  // Amazon Shopping, in French
        ("com.ubercab.eats", "utility"), ("Uber Eats", "utility"),  // Food & Drink
        ("in.swiggy.android", "utility"), ("Swiggy", "utility"),
        ("com.google.android.apps.nbu.paisa.user", "utility"), ("Google Pay", "utility"),  // Finance
        ("com.google.android.apps.walletnfcrel", "utility"), ("Google Wallet", "utility"),
        ("com.samsung.android.spay", "utility"), ("Samsung Pay", "utility"),
        ("com.paypal.android.p2pmobile", "utility"), ("PayPal", "utility"),
        ("com.google.android.apps.weather", "utility"), ("Weather", "utility"), ("Météo", "utility"),
        ("com.sec.android.daemonapp", "utility"),  // Samsung Weather
        ("com.samsung.android.lool", "utility"),  // Samsung Device care: Tools
        ("com.samsung.android.app.smartcapture", "utility"),  // Samsung screenshots
        ("com.huawei.scanner", "utility"),  // Huawei's scanner (Tools)
        ("com.google.ar.lens", "utility"), ("Lens", "utility"),
        ("com.google.android.apps.translate", "utility"), ("Translate", "utility"),
        ("com.adobe.reader", "utility"), ("Adobe Acrobat Reader", "utility"),
        ("at.tomtasche.reader", "utility"), ("OpenDocument Reader", "utility"),
        ("com.colornote", "utility"), ("ColorNote", "utility"),
        ("com.merriamwebster", "utility"), ("Merriam-Webster Dictionary", "utility"),  // Books & Reference
        ("net.rgruet.android.g3watchdog", "utility"), ("3G Watchdog", "utility"),  // Tools
        ("com.bankin.bankin", "utility"), ("Bankin'", "utility"),  // Finance
        ("com.dealabs.apps.android", "utility"), ("Dealabs", "utility"),  // Shopping
        ("Izly", "utility"),  // a French student payment app: Finance
        ("Banque", "utility"),  // a bank's app (the name means "bank"): Finance
        ("I Can't Wake Up! Alarm Clock", "utility"),  // an alarm clock: Tools
        ("Boost", "utility"),  // Tools in 2019 (viz-habits)
        ("Google Opinion Rewards", "utility"), ("Gboard", "home"),  // Gboard: a keyboard
    ]
}
