import SeededRandom

/// The wording of an app: menu words, filler words and button labels in one language.
/// Every character is in all six DejaVu core fonts (Latin with accents, Greek, Cyrillic).
struct Language {
    let words: [String]
    let fillers: [String]
    let actions: [String]
    let tabs: [String]
    let placeholders: [String]
    let cancel: [String]
    let confirm: [String]

    /// English most of the time, then other Latin scripts with accents, Russian and Greek.
    static func pick(_ g: inout SeededGenerator) -> Language {
        let r = g.nextUnitDouble()
        if r < 0.62 { return english }
        if r < 0.92 { return g.pick([french, german, spanish, portuguese, italian, polish]) }
        return g.chance(0.65) ? russian : greek
    }

    static let english = Language(
        words: ["Settings", "General", "Privacy", "Account", "Notifications", "Sounds", "Display", "Battery", "Wallpaper", "Storage",
                "Photos", "Music", "Messages", "Mail", "Calendar", "Weather", "News", "Profile", "Friends", "Search", "Recent",
                "Favorites", "Library", "Downloads", "Home", "Explore", "Cart", "Orders", "Help", "About", "Language", "Region",
                "Security", "Password", "Today", "Tomorrow", "Updates", "Featured", "Top Charts", "Playlists", "Artists", "Albums",
                "Podcasts", "Workout", "Sleep", "Steps", "Heart Rate", "Bluetooth", "Wi-Fi", "Airplane Mode", "Hotspot", "Focus",
                "Screen Time", "Keyboard", "Accessibility", "Reminders", "Notes", "Maps", "Camera", "Wallet", "Health", "Files",
                "Contacts", "Delivery", "Payment", "Address", "Coupons", "Reviews", "Details", "Overview", "Activity", "Recipes",
                "Groceries", "Budget", "Expenses", "Travel", "Hotels", "Flights", "Tickets", "Events", "Groups", "Statistics",
                "Gas stations", "Shopping List", "Invite friends", "Rewards", "Subscriptions", "Backup", "Theme", "Feedback"],
        fillers: ["your", "new", "all", "and", "the", "for", "with", "more", "items", "today", "from", "now", "best", "free", "open",
                  "view", "saved", "data", "photos", "friends", "nearby", "week", "to", "of", "in", "on", "a", "is", "at", "get"],
        actions: ["Continue", "Sign In", "Log in", "Get Started", "Buy Now", "Add to Cart", "Subscribe", "Follow", "Download",
                  "Try Free", "Sign up", "Next", "Save", "Apply", "Book now", "Create Account", "Join now", "Send", "Share"],
        tabs: ["Home", "Search", "Profile", "Library", "Settings", "Explore", "Saved", "Inbox", "Store", "Feed", "Chats", "Maps", "Me"],
        placeholders: ["Search", "Email", "Password", "Name", "Phone number", "Address", "Message", "Username", "City", "Write a comment"],
        cancel: ["Cancel", "Not Now", "Later", "No thanks", "Dismiss"],
        confirm: ["OK", "Allow", "Delete", "Continue", "Got it", "Yes", "Retry"])

    static let french = Language(
        words: ["Réglages", "Général", "Confidentialité", "Compte", "Notifications", "Sons", "Écran", "Batterie", "Fond d'écran",
                "Stockage", "Photos", "Musique", "Messages", "Météo", "Actualités", "Profil", "Amis", "Récents", "Favoris",
                "Bibliothèque", "Téléchargements", "Accueil", "Découvrir", "Panier", "Commandes", "Aide", "À propos", "Langue",
                "Sécurité", "Mot de passe", "Aujourd'hui", "Demain", "Mises à jour", "Sélection", "Activité", "Santé", "Fichiers",
                "Livraison", "Paiement", "Adresse", "Avis", "Détails", "Événements", "Thème", "Préférences", "Reçus"],
        fillers: ["vos", "nouveau", "tous", "et", "le", "la", "pour", "avec", "plus", "à", "de", "près", "été", "déjà", "très"],
        actions: ["Continuer", "Se connecter", "Commencer", "Acheter", "Ajouter au panier", "S'abonner", "Suivant", "Enregistrer", "Réserver"],
        tabs: ["Accueil", "Recherche", "Profil", "Favoris", "Réglages", "Découvrir", "Panier"],
        placeholders: ["Rechercher", "E-mail", "Mot de passe", "Nom", "Téléphone", "Adresse", "Écrire un message"],
        cancel: ["Annuler", "Plus tard"], confirm: ["OK", "Autoriser", "Supprimer", "Continuer"])

    static let german = Language(
        words: ["Einstellungen", "Allgemein", "Datenschutz", "Konto", "Mitteilungen", "Töne", "Anzeige", "Batterie", "Hintergrund",
                "Speicher", "Fotos", "Musik", "Nachrichten", "Wetter", "Profil", "Freunde", "Zuletzt", "Favoriten", "Bibliothek",
                "Startseite", "Entdecken", "Warenkorb", "Bestellungen", "Hilfe", "Über", "Sprache", "Sicherheit", "Passwort",
                "Heute", "Morgen", "Aktualisierungen", "Größe", "Übersicht", "Aktivität", "Gesundheit", "Dateien", "Lieferung",
                "Zahlung", "Straße", "Bewertungen", "Schlüssel", "Geräte", "Grüße", "Öffnungszeiten"],
        fillers: ["ihre", "neue", "alle", "und", "der", "die", "für", "mit", "mehr", "über", "von", "jetzt", "schön", "heute"],
        actions: ["Weiter", "Anmelden", "Loslegen", "Jetzt kaufen", "In den Warenkorb", "Abonnieren", "Speichern", "Bestätigen"],
        tabs: ["Start", "Suche", "Profil", "Favoriten", "Einstellungen", "Entdecken", "Konto"],
        placeholders: ["Suchen", "E-Mail", "Passwort", "Name", "Telefonnummer", "Straße", "Nachricht schreiben"],
        cancel: ["Abbrechen", "Später"], confirm: ["OK", "Erlauben", "Löschen", "Weiter"])

    static let spanish = Language(
        words: ["Ajustes", "General", "Privacidad", "Cuenta", "Notificaciones", "Sonidos", "Pantalla", "Batería", "Fondo",
                "Almacenamiento", "Fotos", "Música", "Mensajes", "Calendario", "Clima", "Noticias", "Perfil", "Amigos", "Búsqueda",
                "Recientes", "Favoritos", "Biblioteca", "Inicio", "Explorar", "Carrito", "Pedidos", "Ayuda", "Información",
                "Idioma", "Región", "Seguridad", "Contraseña", "Hoy", "Mañana", "Actualizaciones", "Salud", "Archivos",
                "Envío", "Pago", "Dirección", "Reseñas", "Categorías", "Cumpleaños", "Año"],
        fillers: ["tus", "nuevo", "todos", "y", "el", "la", "para", "con", "más", "de", "en", "ahora", "aquí", "también"],
        actions: ["Continuar", "Iniciar sesión", "Empezar", "Comprar", "Añadir al carrito", "Suscribirse", "Siguiente", "Guardar"],
        tabs: ["Inicio", "Buscar", "Perfil", "Favoritos", "Ajustes", "Explorar", "Tienda"],
        placeholders: ["Buscar", "Correo electrónico", "Contraseña", "Nombre", "Teléfono", "Dirección", "Escribe un mensaje"],
        cancel: ["Cancelar", "Ahora no"], confirm: ["Aceptar", "Permitir", "Eliminar", "Sí"])

    static let portuguese = Language(
        words: ["Configurações", "Geral", "Privacidade", "Conta", "Notificações", "Sons", "Tela", "Bateria", "Armazenamento",
                "Fotos", "Música", "Mensagens", "Calendário", "Previsão", "Notícias", "Perfil", "Amigos", "Pesquisar", "Favoritos",
                "Biblioteca", "Início", "Explorar", "Carrinho", "Pedidos", "Ajuda", "Sobre", "Idioma", "Segurança", "Senha",
                "Hoje", "Amanhã", "Atualizações", "Saúde", "Arquivos", "Entrega", "Pagamento", "Endereço", "Avaliações", "Promoções"],
        fillers: ["seus", "novo", "todos", "e", "o", "a", "para", "com", "mais", "de", "em", "agora", "você", "não"],
        actions: ["Continuar", "Entrar", "Começar", "Comprar agora", "Adicionar", "Assinar", "Próximo", "Salvar"],
        tabs: ["Início", "Buscar", "Perfil", "Favoritos", "Ajustes", "Explorar", "Loja"],
        placeholders: ["Pesquisar", "E-mail", "Senha", "Nome", "Telefone", "Endereço", "Mensagem"],
        cancel: ["Cancelar", "Agora não"], confirm: ["OK", "Permitir", "Excluir", "Sim"])

    static let italian = Language(
        words: ["Impostazioni", "Generali", "Privacy", "Account", "Notifiche", "Suoni", "Schermo", "Batteria", "Sfondo",
                "Archivio", "Foto", "Musica", "Messaggi", "Calendario", "Meteo", "Notizie", "Profilo", "Amici", "Cerca",
                "Recenti", "Preferiti", "Libreria", "Esplora", "Carrello", "Ordini", "Aiuto", "Lingua", "Sicurezza",
                "Oggi", "Domani", "Attività", "Salute", "Consegna", "Pagamento", "Indirizzo", "Recensioni", "Città", "Novità"],
        fillers: ["tuoi", "nuovo", "tutti", "e", "il", "la", "per", "con", "più", "di", "in", "ora", "già", "perché"],
        actions: ["Continua", "Accedi", "Inizia", "Acquista ora", "Aggiungi al carrello", "Iscriviti", "Avanti", "Salva"],
        tabs: ["Home", "Cerca", "Profilo", "Preferiti", "Impostazioni", "Esplora", "Negozio"],
        placeholders: ["Cerca", "E-mail", "Password", "Nome", "Telefono", "Indirizzo", "Scrivi un messaggio"],
        cancel: ["Annulla", "Più tardi"], confirm: ["OK", "Consenti", "Elimina", "Sì"])

    static let polish = Language(
        words: ["Ustawienia", "Ogólne", "Prywatność", "Konto", "Powiadomienia", "Dźwięki", "Ekran", "Bateria", "Zdjęcia",
                "Muzyka", "Wiadomości", "Kalendarz", "Pogoda", "Profil", "Znajomi", "Szukaj", "Ulubione", "Biblioteka",
                "Główna", "Odkrywaj", "Koszyk", "Zamówienia", "Pomoc", "Język", "Bezpieczeństwo", "Hasło", "Dziś", "Jutro",
                "Zdrowie", "Pliki", "Dostawa", "Płatność", "Adres", "Opinie", "Księgarnia", "Wydarzenia"],
        fillers: ["twoje", "nowe", "wszystkie", "i", "dla", "z", "więcej", "w", "na", "teraz", "już", "się"],
        actions: ["Dalej", "Zaloguj się", "Zacznij", "Kup teraz", "Dodaj do koszyka", "Subskrybuj", "Zapisz"],
        tabs: ["Główna", "Szukaj", "Profil", "Ulubione", "Ustawienia", "Koszyk"],
        placeholders: ["Szukaj", "E-mail", "Hasło", "Imię", "Telefon", "Napisz wiadomość"],
        cancel: ["Anuluj", "Później"], confirm: ["OK", "Zezwól", "Usuń", "Tak"])

    static let russian = Language(
        words: ["Настройки", "Основные", "Конфиденциальность", "Аккаунт", "Уведомления", "Звуки", "Экран", "Аккумулятор",
                "Обои", "Хранилище", "Фото", "Музыка", "Сообщения", "Календарь", "Погода", "Новости", "Профиль", "Друзья",
                "Поиск", "Недавние", "Избранное", "Библиотека", "Главная", "Обзор", "Корзина", "Заказы", "Помощь", "Язык",
                "Безопасность", "Пароль", "Сегодня", "Завтра", "Обновления", "Здоровье", "Файлы", "Доставка", "Оплата",
                "Адрес", "Отзывы", "Подробнее", "Категории"],
        fillers: ["ваши", "новые", "все", "и", "для", "с", "ещё", "в", "на", "сейчас", "уже", "рядом"],
        actions: ["Продолжить", "Войти", "Начать", "Купить", "В корзину", "Подписаться", "Далее", "Сохранить"],
        tabs: ["Главная", "Поиск", "Профиль", "Избранное", "Настройки", "Каталог", "Чаты"],
        placeholders: ["Поиск", "Эл. почта", "Пароль", "Имя", "Телефон", "Адрес", "Сообщение"],
        cancel: ["Отмена", "Позже"], confirm: ["ОК", "Разрешить", "Удалить", "Да"])

    static let greek = Language(
        words: ["Ρυθμίσεις", "Γενικά", "Απόρρητο", "Λογαριασμός", "Ειδοποιήσεις", "Ήχοι", "Οθόνη", "Μπαταρία", "Φωτογραφίες",
                "Μουσική", "Μηνύματα", "Ημερολόγιο", "Καιρός", "Ειδήσεις", "Προφίλ", "Φίλοι", "Αναζήτηση", "Αγαπημένα",
                "Βιβλιοθήκη", "Αρχική", "Καλάθι", "Παραγγελίες", "Βοήθεια", "Γλώσσα", "Ασφάλεια", "Σήμερα", "Αύριο",
                "Υγεία", "Αρχεία", "Παράδοση", "Πληρωμή", "Διεύθυνση", "Κριτικές"],
        fillers: ["σας", "νέα", "όλα", "και", "για", "με", "περισσότερα", "στο", "τώρα", "εδώ"],
        actions: ["Συνέχεια", "Σύνδεση", "Ξεκινήστε", "Αγορά", "Προσθήκη", "Εγγραφή", "Επόμενο", "Αποθήκευση"],
        tabs: ["Αρχική", "Αναζήτηση", "Προφίλ", "Αγαπημένα", "Ρυθμίσεις", "Καλάθι"],
        placeholders: ["Αναζήτηση", "Email", "Κωδικός", "Όνομα", "Τηλέφωνο", "Μήνυμα"],
        cancel: ["Άκυρο", "Αργότερα"], confirm: ["OK", "Να επιτρέπεται", "Διαγραφή", "Ναι"])
}

extension Canvas {
    /// A title-like phrase: a menu word, then fillers and lower-cased words, sometimes a number.
    mutating func phrase(words count: ClosedRange<Int>) -> String {
        let lang = style.language
        var out = [g.pick(lang.words)]
        for _ in 1..<max(1, g.int(count)) { out.append(g.chance(0.6) ? g.pick(lang.fillers) : g.pick(lang.words).lowercased()) }
        if g.chance(0.08) { out.append(String(g.int(1...999))) }
        return out.joined(separator: " ")
    }

    /// A sentence of about `count` words, capitalised, sometimes ending with a full stop.
    mutating func sentence(words count: ClosedRange<Int>) -> String {
        phrase(words: count) + (g.chance(0.5) ? "." : "")
    }

    /// Short values beside a row or under a title: numbers, prices, dates, times, sizes.
    mutating func value() -> String {
        switch g.int(0...9) {
        case 0: return String(g.int(1...999))
        case 1: return g.pick(["$", "€", "£", ""]) + String(format: "%d.%02d", g.int(0...299), g.int(0...99))
        case 2: return String(format: "%d:%02d", g.int(1...12), g.int(0...59)) + g.pick([" AM", " PM", ""])
        case 3: return "\(g.int(1...28)) " + g.pick(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]) + (g.chance(0.4) ? " \(g.int(2015...2025))" : "")
        case 4: return String(format: "%.1f ", g.uniform(0.1...99)) + g.pick(["GB", "MB", "km", "mi", "kg", "%"])
        case 5: return "\(g.int(1...59)) " + g.pick(["min", "h", "d", "min ago", "h ago"])
        case 6: return String(format: "%.1f", g.uniform(1...5)) + (g.chance(0.5) ? " ★" : "")
        case 7: return g.pick(["On", "Off", "Never", "Always", "Automatic", "None", "English", "Default"])
        case 8: return "+\(g.int(1...99)) \(g.int(100...999)) \(g.int(1000...9999))"
        default: return "\(g.int(1...9)),\(g.int(100...999))"
        }
    }

    /// A person's or place's name.
    mutating func name() -> String {
        g.pick(["Anna", "Ben", "Chloé", "David", "Émile", "Fatima", "Grace", "Hiro", "Ivan", "Julia", "Kofi", "Lena", "Marco",
                "Nina", "Omar", "Paula", "Quinn", "Rosa", "Sam", "Tomás", "Uma", "Vera", "Will", "Xavier", "Yara", "Zoë"])
            + " " + g.pick(["Smith", "Müller", "García", "Rossi", "Dubois", "Kowalski", "Ivanova", "Silva", "Chen", "Novak", "O'Brien", "Jensen"])
    }
}
