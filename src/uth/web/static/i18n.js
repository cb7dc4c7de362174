// Every string the page shows, in English and Russian. No other module holds UI text:
// they call t(key, vars). Elements in index.html carry data-i18n (text),
// data-i18n-placeholder, data-i18n-title and data-i18n-aria (attributes).
// Names that are data (players, tables, game numbers) are marked translate="no".
// tests/web check that both dictionaries have the same keys and that the page shows
// no English text once switched to Russian.

export const DICTIONARIES = {
  en: {
    'app.title': "Ultimate Texas Hold'em — live table",
    'app.brand': "Ultimate Texas Hold'em",
    'nav.lobby': '← Lobby',

    'lobby.title': "Ultimate Texas Hold'em",
    'lobby.subtitle': 'Beat the dealer. Ante and Blind, one raise, and the Trips bonus. Play money only.',
    'lobby.name_label': 'Your name',
    'lobby.name_placeholder': 'Enter a name to play',
    'lobby.sign_in': 'Sign in and play',
    'lobby.sign_in_hint': 'Signing in opens a new play-money account with a starting balance.',
    'lobby.signed_in_as': 'Signed in as',
    'lobby.balance': 'Balance',
    'lobby.sign_out': 'Sign out',
    'lobby.tables': 'Tables',
    'lobby.pick_table': 'Sign in, then pick a table to sit at.',
    'lobby.pick_table_signed_in': 'Pick a table and join: betting opens every round.',
    'lobby.no_tables': 'No table is open.',
    'lobby.join': 'Join table',
    'lobby.players': 'Players: {n}',
    'lobby.players_of': 'Players: {n} of {seats}',
    'lobby.welcome': 'Welcome, {name}!',

    'preset.live': 'Live table: one shared hand, unlimited players',
    'preset.casino': 'Casino table: seven seats, own cards, payout cap',
    'preset.california': 'California game: player-dealer banks',
    'preset.california-bad-beat': 'California game with the Bad Beat bonus',
    'preset.other': 'Rule set {name}',

    'phase.idle': 'Opening',
    'phase.betting': 'Betting open',
    'phase.closed': 'Dealing',
    'phase.pre_flop': 'Pre-flop',
    'phase.flop': 'Flop',
    'phase.river': 'Turn and river',
    'phase.settled': 'Showdown',
    'phase.voided': 'Round voided',
    'phase.pause': 'Next round soon',

    'table.felt': 'Table',
    'table.game_number': 'Game',
    'table.history': 'History',
    'table.rules': 'Rules & pays',
    'table.shortcuts': 'Keys',
    'table.dealer': 'Dealer',
    'table.board': 'Board',
    'table.your_hand': 'Your hand',
    'table.player_hand_shared': "Player's hand (shared by every player)",
    'table.balance': 'Balance',
    'table.total_bet': 'Total bet',

    'felt.title': "Ultimate Texas Hold'em",
    'felt.qualifies': 'Dealer qualifies with {hand} or better',

    'light.green': 'Place your bets',
    'light.yellow': 'Betting closes',
    'light.red': 'Betting closed',
    'light.next_round': 'Next round',
    'light.waiting': 'Waiting',
    'timer.seconds': '{n}s',
    'auto.auto_check': 'AUTO CHECKED',
    'auto.auto_fold': 'AUTO FOLDED',

    'spot.ante': 'Ante',
    'spot.blind': 'Blind',
    'spot.play': 'Play',
    'spot.trips': 'Trips',
    'spot.bad_beat': 'Bad Beat',
    'spot.optional': 'bonus',

    'chips.title': 'Chips',
    'chips.chip': 'Chip {value}',
    'bet.undo': 'Undo',
    'bet.double': 'Double (2x)',
    'bet.repeat': 'Repeat',
    'notice.maximum': 'Maximum bet reached on this spot',
    'notice.max_tag': 'Maximum',
    'notice.ante_first': 'Place the Ante first',
    'warn.balance_low_for_play':
      'Your balance left would not cover a 1x Play: you could only fold at the river.',

    'limits.title': 'Bet limits',
    'limits.blind_equal': 'equal to the Ante',
    'limits.play': '4x or 3x, 2x, 1x the Ante',

    'others.title': "Other players' bets",
    'others.none': 'No other bets yet.',
    'others.summary': 'Players betting: {n} · total {total}',
    'others.seat': 'seat {n}',

    'decision.title': 'Make your decision',
    'street.pre_flop': 'Before the flop',
    'street.flop': 'After the flop',
    'street.river': 'After the turn and river',
    'action.play_4x': 'PLAY 4x',
    'action.play_3x': 'PLAY 3x',
    'action.play_2x': 'PLAY 2x',
    'action.play_1x': 'PLAY 1x',
    'action.check': 'CHECK',
    'action.fold': 'FOLD',

    'key.play_4x': '4',
    'key.play_3x': '3',
    'key.play_2x': '2',
    'key.play_1x': '1',
    'key.check': 'C',
    'key.fold': 'F',
    'key.undo': 'U',
    'key.double': 'D',
    'key.repeat': 'R',
    'key.spot_ante': 'A',
    'key.spot_trips': 'T',
    'key.spot_bad_beat': 'B',
    'key.history': 'H',
    'key.rules': 'I',

    'status.connecting': 'Connecting to the table…',
    'status.place_bets': 'Pick a chip, then click the Ante spot. The Blind follows the Ante.',
    'status.bets_placed': 'Bets placed. Add Trips if you like; the deal starts when the light turns red.',
    'status.min_ante': 'Minimum Ante {min}: add chips, or your bets are declined when the light turns red.',
    'status.min_trips': 'Minimum Trips {min}: add chips, or your bets are declined when the light turns red.',
    'status.min_bad_beat': 'Minimum Bad Beat {min}: add chips, or your bets are declined when the light turns red.',
    'status.waiting_others': 'Waiting for the dealer…',
    'status.watching': 'You are watching this round. Bet when the light turns green.',
    'status.next_round': 'The next round opens shortly.',
    'status.round_settled': 'Settled',
    'status.round_voided': 'Voided, refunded',
    'status.round_open': 'In play',

    'announce': 'Dealer has {hand}, {verdict}',
    'announce.royal_flush': 'a royal flush',
    'announce.straight_flush': 'a straight flush',
    'announce.four_of_a_kind': 'four of a kind',
    'announce.full_house': 'a full house',
    'announce.flush': 'a flush',
    'announce.straight': 'a straight',
    'announce.three_of_a_kind': 'three of a kind',
    'announce.two_pair': 'two pair',
    'announce.pair': 'a pair',
    'announce.high_card': 'high card',
    'announce.qualifies': 'qualifies',
    'announce.not_qualifies': 'does not qualify',

    'cat.royal_flush': 'Royal flush',
    'cat.straight_flush': 'Straight flush',
    'cat.four_of_a_kind': 'Four of a kind',
    'cat.full_house': 'Full house',
    'cat.flush': 'Flush',
    'cat.straight': 'Straight',
    'cat.three_of_a_kind': 'Three of a kind',
    'cat.two_pair': 'Two pair',
    'cat.pair': 'Pair',
    'cat.high_card': 'High card',

    'hand.yours': 'Your hand: {hand}',
    'hand.folded': 'Folded',

    'result.win': 'Win',
    'result.lose': 'Lose',
    'result.push': 'Push',
    'result.no_action': 'No action',
    'result.you_win': 'You win {amount}',
    'result.you_lose': 'You lose {amount}',
    'result.even': 'Your bets are returned',
    'result.wager': 'Bet',
    'result.stake': 'Stake',
    'result.result': 'Result',
    'result.net': 'Net',
    'result.dealer_best': "Dealer's best five",
    'result.your_best': 'Your best five',
    'outcome.win': 'You beat the dealer',
    'outcome.lose': 'The dealer wins',
    'outcome.tie': 'A tie with the dealer',
    'outcome.fold': 'Folded',

    'banner.voided': 'The round was voided: every bet is refunded.',
    'banner.declined': 'Your bets were declined and refunded.',
    'banner.declined_min_ante': 'Your bets were declined: the Ante must be at least {min}.',
    'banner.declined_min_trips': 'Your bets were declined: the Trips bet must be at least {min}.',
    'banner.declined_min_bad_beat': 'Your bets were declined: the Bad Beat bet must be at least {min}.',
    'banner.declined_max_ante': 'Your bets were declined: the Ante may be at most {max}.',
    'banner.declined_max_trips': 'Your bets were declined: the Trips bet may be at most {max}.',
    'banner.declined_max_bad_beat': 'Your bets were declined: the Bad Beat bet may be at most {max}.',

    'confirm.play_4x': 'You play 4x.',
    'confirm.play_3x': 'You play 3x.',
    'confirm.play_2x': 'You play 2x.',
    'confirm.play_1x': 'You play 1x.',
    'confirm.check': 'You checked.',
    'confirm.fold': 'You folded.',

    'history.title': 'History',
    'history.loading': 'Loading…',
    'history.empty': 'No rounds yet.',
    'history.open': 'Open',
    'history.back': '← All rounds',
    'history.game_number': 'Game number',
    'history.started': 'Started',
    'history.stake': 'Staked',
    'history.net': 'Net',
    'history.status': 'Status',
    'history.your_cards': 'Your cards',
    'history.board': 'Board',
    'history.dealer': 'Dealer',
    'history.decisions': 'Decisions:',
    'history.balance_change': 'Balance: {before} → {after}',

    'rules.title': 'Rules and pay tables',
    'rules.preset': 'Rule set',
    'rules.seed': 'rules document {seed}',
    'rules.round_title': 'A round',
    'rules.step1': 'Bet the Ante; a Blind equal to the Ante is placed with it. Trips is an optional bonus bet.',
    'rules.step2': 'Two cards are dealt to the player hand and two face down to the dealer.',
    'rules.step3': 'Before the flop: PLAY 4x or 3x the Ante, or CHECK.',
    'rules.step4': 'The flop (three community cards) is turned. If you checked: PLAY 2x, or CHECK.',
    'rules.step5': 'The turn and river are turned. If you checked twice: PLAY 1x, or FOLD.',
    'rules.step6': "The dealer's cards are shown and announced; the best five of seven cards play.",
    'rules.step7': 'Every bet is settled and the balance updated. Each round has a game number (its UTC start time).',
    'rules.settlement_title': 'Settlement',
    'rules.qualifier': 'The dealer qualifies with {hand} or better. If the dealer does not qualify, the Ante is returned.',
    'rules.ante_pays': 'Ante pays 1:1 when you beat a qualifying dealer.',
    'rules.play_pays': 'Play pays 1:1 when you beat the dealer, qualifying or not.',
    'rules.blind_rule': 'Blind: paid by its table when you win with a straight or better; a smaller winning hand pushes; lost when the dealer wins.',
    'rules.trips_rule': 'Trips: paid by its table on three of a kind or better, whatever the dealer holds; it never pushes.',
    'rules.folded_trips_player': 'You can fold only at the river, so a folded hand has no Play bet: it loses {lost}; its Trips bet still has action, on your best hand.',
    'rules.folded_trips_board': 'You can fold only at the river, so a folded hand has no Play bet: it loses {lost}; its Trips bet still has action, on the five community cards only.',
    'rules.fold_lost': 'the Ante and the Blind',
    'rules.fold_lost_bad_beat': 'the Ante, the Blind and the Bad Beat bet',
    'rules.tie': 'A tie pushes the Ante, Blind and Play.',
    'rules.shared_hand': 'At this table one player hand is dealt face up and shared by every player; each player decides alone.',
    'rules.seats': '{n} seats.',
    'rules.seats_unlimited': 'Any number of players, one seat each.',
    'rules.deck_one': 'One deck, shuffled after every round.',
    'rules.deck_two': 'Two decks used in turn.',
    'rules.cap': 'Payout cap: at most {amount} paid to one player in a round on Ante, Blind and Play together (Trips is not capped).',
    'rules.side_not_above_ante': 'Side bets may not exceed the Ante.',
    'rules.multiple': '{m}x',
    'rules.play_multiples': 'Play bet: {pre} before the flop, {flop} on the flop, {river} at the river; a Play bet needs balance to cover it.',
    'rules.timers': 'Betting time is shown by the traffic light: green (open), yellow (closing), red (closed). If time runs out on a decision, the hand is checked (AUTO CHECKED), or folded at the river (AUTO FOLDED).',
    'rules.malfunction': 'A malfunction voids all pays and play; a cancelled round refunds every bet.',
    'rules.hand': 'Hand',
    'rules.pays': 'Pays',
    'rules.blind_less': 'Anything less',
    'rules.rtp_title': 'Return to player',
    'rules.rtp_pending': 'Return to player: being computed for this rule set.',
    'rules.rtp_failed': 'Return to player: could not be computed for this rule set.',
    'rules.rtp_figures': 'With perfect play: {total} of the total bet, {initial} of the Ante (house edge {edge} of the Ante).',
    'rules.rtp_trips': 'Trips: {rtp}.',
    'rules.rtp_bad_beat': 'Bad Beat: {rtp}.',
    'pays.blind': 'Blind pays',
    'pays.trips': 'Trips pays',
    'pays.bad_beat': 'Bad Beat pays',
    'odds': '{odds}',

    'keys.title': 'Keyboard shortcuts',
    'keys.intro': 'Keys work at the table while no dialog is open.',
    'keys.chips': 'Pick chip 1 to 5 (smallest first)',
    'keys.ante': 'Add the chip to the Ante',
    'keys.trips': 'Add the chip to Trips',
    'keys.bad_beat': 'Add the chip to Bad Beat (where offered)',
    'keys.undo': 'Undo the last bet',
    'keys.double': 'Double the bets',
    'keys.repeat': "Repeat the last round's bets",
    'keys.play_4x': 'PLAY 4x',
    'keys.play_3x': 'PLAY 3x',
    'keys.play_2x': 'PLAY 2x',
    'keys.play_1x': 'PLAY 1x',
    'keys.check': 'CHECK',
    'keys.fold': 'FOLD',
    'keys.history': 'History',
    'keys.rules': 'Rules and pay tables',
    'keys.help': 'This list',
    'dialog.close': 'Close',

    // Spoken names (screen readers); the cards show A K Q J 10 in every language.
    'rank.J': 'Jack',
    'rank.Q': 'Queen',
    'rank.K': 'King',
    'rank.A': 'Ace',
    'suit.c': 'of clubs',
    'suit.d': 'of diamonds',
    'suit.h': 'of hearts',
    'suit.s': 'of spades',
    'card.back': 'face-down card',

    'error.generic': 'The table refused that.',
    'error.network': 'The server cannot be reached.',
    'error.unauthorized': 'Please sign in again.',
    'error.table_not_found': 'There is no such table.',
    'error.table_full': 'Every seat at this table is taken.',
    'error.not_found': 'There is no such table.',
    'error.wrong_phase': 'Not now: that is not open at this moment.',
    'error.over_limit': 'That bet is over the limit.',
    'error.insufficient_funds': 'Your balance does not cover that bet.',
    'error.illegal_action': 'That decision is not open to you.',
    'error.invalid_amount': 'That amount is not valid.',
    'error.not_seated': 'You are not seated at this table.',
    'error.malformed': 'The table did not understand the request.',
    'error.bad_name': 'Please enter a name of 1 to 40 characters.',
  },

  ru: {
    'app.title': 'Ультимейт Техас Холдем — живой стол',
    'app.brand': 'Ультимейт Техас Холдем',
    'nav.lobby': '← Лобби',

    'lobby.title': 'Ультимейт Техас Холдем',
    'lobby.subtitle': 'Обыграйте дилера. Анте и Блайнд, одно повышение и бонус Трипс. Только игровые деньги.',
    'lobby.name_label': 'Ваше имя',
    'lobby.name_placeholder': 'Введите имя, чтобы играть',
    'lobby.sign_in': 'Войти и играть',
    'lobby.sign_in_hint': 'При входе открывается новый счёт игровых денег со стартовым балансом.',
    'lobby.signed_in_as': 'Вы вошли как',
    'lobby.balance': 'Баланс',
    'lobby.sign_out': 'Выйти',
    'lobby.tables': 'Столы',
    'lobby.pick_table': 'Войдите и выберите стол.',
    'lobby.pick_table_signed_in': 'Выберите стол и садитесь: ставки открываются каждый раунд.',
    'lobby.no_tables': 'Открытых столов нет.',
    'lobby.join': 'За стол',
    'lobby.players': 'Игроков: {n}',
    'lobby.players_of': 'Игроков: {n} из {seats}',
    'lobby.welcome': 'Добро пожаловать, {name}!',

    'preset.live': 'Живой стол: одна общая рука, игроков без ограничений',
    'preset.casino': 'Стол казино: семь мест, свои карты, предел выплаты',
    'preset.california': 'Калифорнийская игра: банкует игрок-дилер',
    'preset.california-bad-beat': 'Калифорнийская игра с бонусом Бэд Бит',
    'preset.other': 'Правила {name}',

    'phase.idle': 'Открывается',
    'phase.betting': 'Приём ставок',
    'phase.closed': 'Раздача',
    'phase.pre_flop': 'До флопа',
    'phase.flop': 'Флоп',
    'phase.river': 'Тёрн и ривер',
    'phase.settled': 'Вскрытие',
    'phase.voided': 'Раунд отменён',
    'phase.pause': 'Скоро новый раунд',

    'table.felt': 'Стол',
    'table.game_number': 'Игра',
    'table.history': 'История',
    'table.rules': 'Правила и выплаты',
    'table.shortcuts': 'Клавиши',
    'table.dealer': 'Дилер',
    'table.board': 'Общие карты',
    'table.your_hand': 'Ваша рука',
    'table.player_hand_shared': 'Рука игрока (общая для всех игроков)',
    'table.balance': 'Баланс',
    'table.total_bet': 'Общая ставка',

    'felt.title': 'Ультимейт Техас Холдем',
    'felt.qualifies': 'Дилер квалифицируется: {hand} или выше',

    'light.green': 'Делайте ставки',
    'light.yellow': 'Ставки закрываются',
    'light.red': 'Ставки закрыты',
    'light.next_round': 'Новый раунд',
    'light.waiting': 'Ожидание',
    'timer.seconds': '{n} с',
    'auto.auto_check': 'АВТОЧЕК',
    'auto.auto_fold': 'АВТОПАС',

    'spot.ante': 'Анте',
    'spot.blind': 'Блайнд',
    'spot.play': 'Игра',
    'spot.trips': 'Трипс',
    'spot.bad_beat': 'Бэд Бит',
    'spot.optional': 'бонус',

    'chips.title': 'Фишки',
    'chips.chip': 'Фишка {value}',
    'bet.undo': 'Отменить',
    'bet.double': 'Удвоить (2×)',
    'bet.repeat': 'Повторить',
    'notice.maximum': 'На этом поле достигнута максимальная ставка',
    'notice.max_tag': 'Максимум',
    'notice.ante_first': 'Сначала поставьте Анте',
    'warn.balance_low_for_play':
      'Оставшийся баланс не покроет ставку Игра 1×: на ривере можно будет только сбросить карты.',

    'limits.title': 'Лимиты ставок',
    'limits.blind_equal': 'равен Анте',
    'limits.play': '4× или 3×, 2×, 1× Анте',

    'others.title': 'Ставки других игроков',
    'others.none': 'Других ставок пока нет.',
    'others.summary': 'Игроков со ставками: {n} · всего {total}',
    'others.seat': 'место {n}',

    'decision.title': 'Примите решение',
    'street.pre_flop': 'До флопа',
    'street.flop': 'После флопа',
    'street.river': 'После тёрна и ривера',
    'action.play_4x': 'ИГРАТЬ 4×',
    'action.play_3x': 'ИГРАТЬ 3×',
    'action.play_2x': 'ИГРАТЬ 2×',
    'action.play_1x': 'ИГРАТЬ 1×',
    'action.check': 'ЧЕК',
    'action.fold': 'ПАС',

    // The letters on the same keys of a Russian keyboard (the keys are matched by
    // position, so either layout works).
    'key.play_4x': '4',
    'key.play_3x': '3',
    'key.play_2x': '2',
    'key.play_1x': '1',
    'key.check': 'С',
    'key.fold': 'А',
    'key.undo': 'Г',
    'key.double': 'В',
    'key.repeat': 'К',
    'key.spot_ante': 'Ф',
    'key.spot_trips': 'Е',
    'key.spot_bad_beat': 'И',
    'key.history': 'Р',
    'key.rules': 'Ш',

    'status.connecting': 'Подключение к столу…',
    'status.place_bets': 'Выберите фишку и нажмите на поле Анте. Блайнд ставится вместе с Анте.',
    'status.bets_placed': 'Ставки сделаны. Можно добавить Трипс; раздача начнётся, когда загорится красный.',
    'status.min_ante': 'Минимальная ставка Анте — {min}: добавьте фишки, иначе ставки не примут, когда загорится красный.',
    'status.min_trips': 'Минимальная ставка Трипс — {min}: добавьте фишки, иначе ставки не примут, когда загорится красный.',
    'status.min_bad_beat': 'Минимальная ставка Бэд Бит — {min}: добавьте фишки, иначе ставки не примут, когда загорится красный.',
    'status.waiting_others': 'Ждём дилера…',
    'status.watching': 'Вы наблюдаете за раундом. Ставьте, когда загорится зелёный.',
    'status.next_round': 'Новый раунд скоро откроется.',
    'status.round_settled': 'Рассчитан',
    'status.round_voided': 'Отменён, возвращено',
    'status.round_open': 'Идёт',

    'announce': 'У дилера {hand}, {verdict}',
    'announce.royal_flush': 'роял-флеш',
    'announce.straight_flush': 'стрит-флеш',
    'announce.four_of_a_kind': 'каре',
    'announce.full_house': 'фулл-хаус',
    'announce.flush': 'флеш',
    'announce.straight': 'стрит',
    'announce.three_of_a_kind': 'тройка',
    'announce.two_pair': 'две пары',
    'announce.pair': 'пара',
    'announce.high_card': 'старшая карта',
    'announce.qualifies': 'квалифицируется',
    'announce.not_qualifies': 'не квалифицируется',

    'cat.royal_flush': 'Роял-флеш',
    'cat.straight_flush': 'Стрит-флеш',
    'cat.four_of_a_kind': 'Каре',
    'cat.full_house': 'Фулл-хаус',
    'cat.flush': 'Флеш',
    'cat.straight': 'Стрит',
    'cat.three_of_a_kind': 'Тройка',
    'cat.two_pair': 'Две пары',
    'cat.pair': 'Пара',
    'cat.high_card': 'Старшая карта',

    'hand.yours': 'Ваша рука: {hand}',
    'hand.folded': 'Сброшено',

    'result.win': 'Выигрыш',
    'result.lose': 'Проигрыш',
    'result.push': 'Возврат',
    'result.no_action': 'Не играла',
    'result.you_win': 'Вы выиграли {amount}',
    'result.you_lose': 'Вы проиграли {amount}',
    'result.even': 'Ваши ставки возвращены',
    'result.wager': 'Ставка',
    'result.stake': 'Сумма',
    'result.result': 'Исход',
    'result.net': 'Итог',
    'result.dealer_best': 'Лучшие пять карт дилера',
    'result.your_best': 'Ваши лучшие пять карт',
    'outcome.win': 'Вы обыграли дилера',
    'outcome.lose': 'Дилер выиграл',
    'outcome.tie': 'Ничья с дилером',
    'outcome.fold': 'Сброшено',

    'banner.voided': 'Раунд отменён: все ставки возвращены.',
    'banner.declined': 'Ваши ставки не приняты и возвращены.',
    'banner.declined_min_ante': 'Ваши ставки не приняты: Анте должно быть не меньше {min}.',
    'banner.declined_min_trips': 'Ваши ставки не приняты: ставка Трипс должна быть не меньше {min}.',
    'banner.declined_min_bad_beat': 'Ваши ставки не приняты: ставка Бэд Бит должна быть не меньше {min}.',
    'banner.declined_max_ante': 'Ваши ставки не приняты: Анте должно быть не больше {max}.',
    'banner.declined_max_trips': 'Ваши ставки не приняты: ставка Трипс должна быть не больше {max}.',
    'banner.declined_max_bad_beat': 'Ваши ставки не приняты: ставка Бэд Бит должна быть не больше {max}.',

    'confirm.play_4x': 'Вы играете 4×.',
    'confirm.play_3x': 'Вы играете 3×.',
    'confirm.play_2x': 'Вы играете 2×.',
    'confirm.play_1x': 'Вы играете 1×.',
    'confirm.check': 'Вы выбрали чек.',
    'confirm.fold': 'Вы сбросили карты.',

    'history.title': 'История',
    'history.loading': 'Загрузка…',
    'history.empty': 'Раундов пока нет.',
    'history.open': 'Открыть',
    'history.back': '← Все раунды',
    'history.game_number': 'Номер игры',
    'history.started': 'Начало',
    'history.stake': 'Поставлено',
    'history.net': 'Результат',
    'history.status': 'Статус',
    'history.your_cards': 'Ваши карты',
    'history.board': 'Общие карты',
    'history.dealer': 'Дилер',
    'history.decisions': 'Решения:',
    'history.balance_change': 'Баланс: {before} → {after}',

    'rules.title': 'Правила и таблицы выплат',
    'rules.preset': 'Набор правил',
    'rules.seed': 'документ правил {seed}',
    'rules.round_title': 'Раунд',
    'rules.step1': 'Поставьте Анте; вместе с ним ставится Блайнд, равный Анте. Трипс — необязательная бонусная ставка.',
    'rules.step2': 'Две карты сдаются руке игрока и две лицом вниз дилеру.',
    'rules.step3': 'До флопа: ИГРАТЬ 4× или 3× Анте, или ЧЕК.',
    'rules.step4': 'Открывается флоп (три общие карты). Если был чек: ИГРАТЬ 2× или ЧЕК.',
    'rules.step5': 'Открываются тёрн и ривер. Если было два чека: ИГРАТЬ 1× или ПАС.',
    'rules.step6': 'Карты дилера открываются и объявляются; играют лучшие пять карт из семи.',
    'rules.step7': 'Все ставки рассчитываются, баланс обновляется. У каждого раунда есть номер игры (время начала по Гринвичу).',
    'rules.settlement_title': 'Расчёт',
    'rules.qualifier': 'Дилер квалифицируется, если у него {hand} или выше. Если дилер не квалифицируется, Анте возвращается.',
    'rules.ante_pays': 'Анте платит 1:1, когда вы обыгрываете квалифицированного дилера.',
    'rules.play_pays': 'Игра платит 1:1, когда вы обыгрываете дилера, квалифицирован он или нет.',
    'rules.blind_rule': 'Блайнд: платит по своей таблице при выигрыше со стритом или выше; меньшая выигрышная рука — возврат; проигрывает, когда выигрывает дилер.',
    'rules.trips_rule': 'Трипс: платит по своей таблице при тройке или выше, что бы ни было у дилера; возврата не бывает.',
    'rules.folded_trips_player': 'Сбросить карты можно только на ривере, поэтому у сброшенной руки нет ставки Игра: она теряет {lost}; ставка Трипс при этом играет, по вашей лучшей руке.',
    'rules.folded_trips_board': 'Сбросить карты можно только на ривере, поэтому у сброшенной руки нет ставки Игра: она теряет {lost}; ставка Трипс при этом играет, только по пяти общим картам.',
    'rules.fold_lost': 'Анте и Блайнд',
    'rules.fold_lost_bad_beat': 'Анте, Блайнд и ставку Бэд Бит',
    'rules.tie': 'При ничьей Анте, Блайнд и Игра возвращаются.',
    'rules.shared_hand': 'За этим столом одна рука игрока сдаётся лицом вверх и общая для всех; каждый игрок решает сам.',
    'rules.seats': 'Мест за столом: {n}.',
    'rules.seats_unlimited': 'Игроков сколько угодно, у каждого одно место.',
    'rules.deck_one': 'Одна колода, перемешивается после каждого раунда.',
    'rules.deck_two': 'Две колоды по очереди.',
    'rules.cap': 'Предел выплаты: не более {amount} одному игроку за раунд по Анте, Блайнду и Игре вместе (на Трипс предела нет).',
    'rules.side_not_above_ante': 'Бонусные ставки не могут превышать Анте.',
    'rules.multiple': '{m}×',
    'rules.play_multiples': 'Ставка Игра: {pre} до флопа, {flop} на флопе, {river} на ривере; баланс должен её покрывать.',
    'rules.timers': 'Время ставок показывает светофор: зелёный (ставки открыты), жёлтый (закрываются), красный (закрыты). Если время решения истекло, рука делает чек (АВТОЧЕК), а на ривере сбрасывается (АВТОПАС).',
    'rules.malfunction': 'Сбой аннулирует все выплаты и игру; в отменённом раунде все ставки возвращаются.',
    'rules.hand': 'Комбинация',
    'rules.pays': 'Выплата',
    'rules.blind_less': 'Всё, что ниже',
    'rules.rtp_title': 'Возврат игроку',
    'rules.rtp_pending': 'Возврат игроку: рассчитывается для этих правил.',
    'rules.rtp_failed': 'Возврат игроку: не удалось рассчитать для этих правил.',
    'rules.rtp_figures': 'При оптимальной игре: {total} от общей ставки, {initial} от анте (преимущество казино {edge} от анте).',
    'rules.rtp_trips': 'Трипс: {rtp}.',
    'rules.rtp_bad_beat': 'Бэд Бит: {rtp}.',
    'pays.blind': 'Выплаты Блайнд',
    'pays.trips': 'Выплаты Трипс',
    'pays.bad_beat': 'Выплаты Бэд Бит',
    'odds': '{odds}',

    'keys.title': 'Клавиши',
    'keys.intro': 'Клавиши работают за столом, когда не открыто окно.',
    'keys.chips': 'Фишка с 1 по 5 (от меньшей)',
    'keys.ante': 'Добавить фишку на Анте',
    'keys.trips': 'Добавить фишку на Трипс',
    'keys.bad_beat': 'Добавить фишку на Бэд Бит (где он есть)',
    'keys.undo': 'Отменить последнюю ставку',
    'keys.double': 'Удвоить ставки',
    'keys.repeat': 'Повторить ставки прошлого раунда',
    'keys.play_4x': 'ИГРАТЬ 4×',
    'keys.play_3x': 'ИГРАТЬ 3×',
    'keys.play_2x': 'ИГРАТЬ 2×',
    'keys.play_1x': 'ИГРАТЬ 1×',
    'keys.check': 'ЧЕК',
    'keys.fold': 'ПАС',
    'keys.history': 'История',
    'keys.rules': 'Правила и таблицы выплат',
    'keys.help': 'Этот список',
    'dialog.close': 'Закрыть',

    'rank.J': 'Валет',
    'rank.Q': 'Дама',
    'rank.K': 'Король',
    'rank.A': 'Туз',
    'suit.c': 'треф',
    'suit.d': 'бубен',
    'suit.h': 'червей',
    'suit.s': 'пик',
    'card.back': 'карта рубашкой вверх',

    'error.generic': 'Стол отклонил это действие.',
    'error.network': 'Сервер недоступен.',
    'error.unauthorized': 'Пожалуйста, войдите снова.',
    'error.table_not_found': 'Такого стола нет.',
    'error.table_full': 'Все места за этим столом заняты.',
    'error.not_found': 'Такого стола нет.',
    'error.wrong_phase': 'Сейчас это недоступно.',
    'error.over_limit': 'Ставка выше лимита.',
    'error.insufficient_funds': 'Баланса не хватает для этой ставки.',
    'error.illegal_action': 'Это решение вам сейчас недоступно.',
    'error.invalid_amount': 'Недопустимая сумма.',
    'error.not_seated': 'Вы не сидите за этим столом.',
    'error.malformed': 'Стол не понял запрос.',
    'error.bad_name': 'Введите имя длиной от 1 до 40 символов.',
  },
};

export const LANGUAGES = Object.keys(DICTIONARIES);
const LANG_KEY = 'uth.lang';
const listeners = [];

function initialLang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && DICTIONARIES[saved]) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return DICTIONARIES[nav] ? nav : 'en';
}

let lang = initialLang();

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!DICTIONARIES[next] || next === lang) return;
  lang = next;
  localStorage.setItem(LANG_KEY, next);
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function hasKey(key) {
  return Object.hasOwn(DICTIONARIES[lang], key);
}

/**
 * The text of `key` in the current language with {name} placeholders filled in.
 * A missing key returns `fallback` when one is given (null included), else the key
 * itself in brackets so that it shows up in tests.
 */
export function t(key, vars = {}, fallback) {
  const dict = DICTIONARIES[lang];
  let text = Object.hasOwn(dict, key) ? dict[key] : undefined;
  if (text === undefined) {
    if (fallback !== undefined) return fallback;
    console.error(`i18n: missing key ${key}`); // the browser tests fail on console errors
    return `[${key}]`;
  }
  for (const [k, v] of Object.entries(vars ?? {})) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}

/** Translate the static page: data-i18n (text) and data-i18n-* (attributes). */
export function translateTree(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) node.placeholder = t(node.dataset.i18nPlaceholder);
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll('[data-i18n-aria]')) node.setAttribute('aria-label', t(node.dataset.i18nAria));
}

const LOCALES = { en: 'en-US', ru: 'ru-RU' };

/** Money in the page's language: whole amounts without decimals, others with two. */
export function formatMoney(value) {
  const n = Number(value ?? 0);
  const whole = Number.isInteger(n);
  return new Intl.NumberFormat(LOCALES[lang], {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(n);
}

/** A date and time (ISO string) in the page's language and the browser's time zone. */
export function formatDateTime(iso) {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}
