//! What krb-doctor says, in English and Korean (`KRB_LANG=ko` or a Korean locale): each check's
//! name, status, finding and fix. scripts/doctor.sh prints its own checks from the same words
//! (its `line` and `krb_line`), so that a Korean learner reads one language top to bottom.

krb_cli::msgs! { ALL;
    /// The status words, each padded to the status column where it is printed.
    OK = "ok", "정상";
    WARN = "warn", "주의";
    FAILED = "FAILED", "실패";
    FIX = "; fix: {fix}", "; 고칠 방법: {fix}";
    BROKER = "broker", "브로커";
    ACCESS = "access", "권한";
    CLOCK = "clock", "시계";
    /// lib.rs: the client, the bootstrap broker and the brokers it names.
    NO_CLIENT = "cannot make a Kafka client: {why}", "Kafka 클라이언트를 만들 수 없어요: {why}";
    NO_CLIENT_FIX = "check the -X properties", "-X 속성을 확인하세요";
    NO_BROKER = "no Kafka broker answers at {bootstrap} within {seconds} s ({why})",
        "{bootstrap}에서 {seconds}초 안에 답하는 Kafka 브로커가 없어요 ({why})";
    START_BROKER =
        "start one (scripts/kafka-local.sh start, or docker compose -p kreb up -d), or point \
        KRB_BOOTSTRAP at the room's broker (export KRB_BOOTSTRAP=HOST:9481)",
        "브로커를 띄우거나(scripts/kafka-local.sh start, 또는 docker compose -p kreb up -d) \
        KRB_BOOTSTRAP이 교실의 브로커를 가리키게 하세요(export KRB_BOOTSTRAP=HOST:9481)";
    NAMED_HERE =
        "{bootstrap} answers, but names its broker {id} at {at}, which is this machine, not the \
        broker",
        "{bootstrap}의 브로커는 답하지만 브로커 {id}의 주소를 알려 주는데({at}), 그건 브로커가 \
        아니라 이 머신이에요";
    NAMED_SILENT =
        "{bootstrap} answers, but names its broker {id} at {at}, which does not answer from here \
        ({why})",
        "{bootstrap}의 브로커는 답하지만 브로커 {id}의 주소를 알려 주는데({at}), 여기서는 그 \
        주소가 답하지 않아요 ({why})";
    ADVERTISE_FIX =
        "the broker must give clients an address the room reaches: its host starts it with \
        KRB_ADVERTISE=THAT-ADDRESS (scripts/kafka-local.sh start, or docker compose -p kreb up -d)",
        "브로커는 교실에서 닿는 주소를 클라이언트에게 알려 줘야 해요: 브로커의 머신에서 \
        KRB_ADVERTISE=THAT-ADDRESS로 띄우세요(scripts/kafka-local.sh start, 또는 docker compose \
        -p kreb up -d)";
    BROKERS = "Kafka answers at {bootstrap}: broker {brokers}",
        "{bootstrap}에서 Kafka가 답해요: 브로커 {brokers}";
    /// One broker of [`BROKERS`]' list.
    BROKER_AT = "{id} at {at}", "{id}번 {at}";
    CLOCK_UNMEASURED = "not measured: {why}", "재지 못했어요: {why}";
    CLOCK_UNMEASURED_FIX =
        "the clock check creates and deletes a topic of your namespace: the broker must allow it",
        "시계 검사는 namespace의 토픽을 하나 만들었다가 지워요: 브로커가 그것을 허락해야 해요";
    /// place.rs: the namespace.
    NS_SET = "KRB_NS={ns}: your topics and groups on the broker are {ns}-NAME",
        "KRB_NS={ns}: 브로커에서 내 토픽과 그룹은 {ns}-NAME이에요";
    NS_LOCAL = "none set, none needed: the broker ({bootstrap}) is on this machine",
        "정하지 않았고 필요도 없어요: 브로커({bootstrap})가 이 머신에 있어요";
    NS_NEEDED =
        "KRB_NS is not set and the broker ({bootstrap}) is not on this machine, so others may \
        share it: your `topic pay 2` would recreate the topic they read",
        "KRB_NS가 없는데 브로커({bootstrap})가 이 머신에 있지 않아서 다른 사람도 쓸 수 있어요: 내 \
        `topic pay 2`가 그 사람들이 읽는 토픽을 다시 만들어 버려요";
    NS_FIX = "pick a name of your own: export KRB_NS=yourname (letters, digits, . _ -)",
        "자기 이름을 정하세요: export KRB_NS=yourname (영문자, 숫자, . _ -)";
    /// login.rs: a room's login and what its ACLs allow.
    LOGIN_REFUSED_FIX =
        "the broker refused the login {user} of {source}: take the .env and .conf of your handout \
        again (the teacher's scripts/room.sh add NAME wrote them) and source the .env",
        "브로커가 {source}의 로그인({user})을 거절했어요: 유인물의 .env와 .conf를 다시 받아(강사의 \
        scripts/room.sh add NAME이 만든 파일이에요) .env를 source하세요";
    NO_LOGIN_FIX =
        "the broker closed the connection, as a workshop room does to a client without a login: \
        source your handout (source NAME.env), which sets KRB_CONFIG to its NAME.conf",
        "워크숍 교실이 로그인 없는 클라이언트에게 하듯 브로커가 연결을 끊었어요: 유인물을 \
        source하세요(source NAME.env). KRB_CONFIG를 그 NAME.conf로 정해 줘요";
    ACCESS_OK = "{user} may create and use {topic} and the other topics of the namespace",
        "{user} 사용자는 {topic} 토픽과 namespace의 다른 토픽을 만들고 쓸 수 있어요";
    ACCESS_OTHER_NS =
        "the broker does not let {user} create {topic} (Topic authorization failed): KRB_NS is \
        {ns}, not {user}",
        "브로커가 {user} 사용자에게 {topic} 토픽을 만들게 해 주지 않아요(Topic authorization \
        failed): KRB_NS({ns})가 로그인 이름({user})와 달라요";
    ACCESS_NO_ACL =
        "the broker does not let {user} create {topic} (Topic authorization failed): the room has \
        no ACL for it",
        "브로커가 {user} 사용자에게 {topic} 토픽을 만들게 해 주지 않아요(Topic authorization \
        failed): 교실에 그 ACL이 없어요";
    ACCESS_FIX =
        "the room lets {user} use only names that start with {user}-: export KRB_NS={user} (your \
        handout's .env sets it), or ask the teacher to add you (scripts/room.sh add {user})",
        "교실은 {user} 사용자에게 {user}-NAME 꼴의 이름만 허락해요: export KRB_NS={user} (유인물의 .env가 \
        정해 줘요), 또는 강사에게 추가해 달라고 하세요(scripts/room.sh add {user})";
    ACCESS_UNKNOWN = "not checked: creating {topic} was answered with {code}",
        "확인하지 못했어요: {topic} 토픽을 만드는 요청에 답이 왔어요: {code}";
    ACCESS_UNKNOWN_FIX = "ask the teacher whether the room's broker runs",
        "교실의 브로커가 떠 있는지 강사에게 물어보세요";
    /// versions.rs: the broker's release and KIP-848.
    NEW_IN = "{api} v{version}, new in {release}", "{release}에서 새로 생긴 {api} v{version}";
    OLD_FETCH = "it serves Fetch v{version}, which Kafka 4.0 removed (KIP-896)",
        "Kafka 4.0이 KIP-896으로 없앤 Fetch v{version}까지 제공해요";
    NEW_FETCH = "Fetch from v4 only, as from 4.0 (KIP-896)", "4.0부터처럼 Fetch는 v4부터만 제공해요, KIP-896";
    KIP848 = "with the consumer group protocol of KIP-848 (ConsumerGroupHeartbeat) for lab 5",
        "실습 5에 쓸 KIP-848의 컨슈머 그룹 프로토콜(ConsumerGroupHeartbeat)이 있어요";
    NO_KIP848 =
        "without the consumer group protocol of KIP-848 (no ConsumerGroupHeartbeat): lab 5's \
        consumer variant cannot run",
        "KIP-848의 컨슈머 그룹 프로토콜이 없어요(ConsumerGroupHeartbeat 없음): 실습 5의 consumer \
        변형은 돌 수 없어요";
    AT_LEAST = ">= {release} ({why}), {protocol}", "{release} 이상({why}), {protocol}";
    BEFORE_4 = "older than 4.0 ({why}), {protocol}", "4.0보다 오래됨({why}), {protocol}";
    UNTOLD = "a version its API ranges do not tell, {protocol}", "API 범위로는 알 수 없는 버전, {protocol}";
    NO_VERSIONS = "its version is not known: librdkafka logged no ApiVersions answer",
        "버전을 알 수 없어요: librdkafka가 ApiVersions 응답을 남기지 않았어요";
    KAFKA_FIX =
        "the labs are written against Kafka 4.3.1 (scripts/kafka-local.sh start, or docker \
        compose -p kreb up -d, runs it)",
        "실습은 Kafka 4.3.1에 맞춰 쓰였어요(scripts/kafka-local.sh start, 또는 docker compose -p \
        kreb up -d가 그 버전을 띄워요)";
    /// clock.rs: this machine's clock against the broker's, and why it was not measured.
    SECONDS = "{seconds} s", "{seconds}초";
    CLOCK_SAME = "this machine's clock is the same as the broker's (± {plus_minus})",
        "이 머신의 시계는 브로커의 시계와 같아요(± {plus_minus})";
    CLOCK_BEHIND = "this machine's clock is {seconds} behind the broker's (± {plus_minus})",
        "이 머신의 시계가 브로커의 시계보다 {seconds} 느려요(± {plus_minus})";
    CLOCK_AHEAD = "this machine's clock is {seconds} ahead of the broker's (± {plus_minus})",
        "이 머신의 시계가 브로커의 시계보다 {seconds} 빨라요(± {plus_minus})";
    CLOCK_SLOW = "{detail}: the round trip to the broker is too slow to tell within {tolerance}",
        "{detail}: 브로커까지 왕복이 너무 느려서 {tolerance} 안으로 잴 수 없어요";
    CLOCK_SLOW_FIX = "run scripts/doctor.sh again when the network is quieter",
        "네트워크가 한가할 때 scripts/doctor.sh를 다시 실행하세요";
    CLOCK_FAR = "{detail}, more than {tolerance} apart", "{detail}. {tolerance}보다 더 차이 나요";
    CLOCK_FAR_FIX =
        "set the clock from the network (sudo timedatectl set-ntp true), on this machine or the \
        broker's",
        "이 머신이나 브로커 머신의 시계를 네트워크에 맞추세요(sudo timedatectl set-ntp true)";
    NO_SCRATCH_REQUEST = "cannot ask for a scratch topic: {why}", "임시 토픽을 요청할 수 없어요: {why}";
    NO_SCRATCH = "cannot create the scratch topic {topic}: {code}",
        "임시 토픽({topic})을 만들 수 없어요: {code}";
    NO_SCRATCH_ANSWER = "the broker did not answer the request to create {topic}",
        "{topic} 토픽을 만드는 요청에 브로커가 답하지 않았어요";
    SCRATCH_LEFT =
        "measured, but the scratch topic {topic} is still there: krb-topic {topic} --delete",
        "쟀지만 임시 토픽({topic})이 아직 남아 있어요: krb-topic {topic} --delete";
    NOT_SENT = "cannot send to {topic}: {why}", "{topic} 토픽에 보낼 수 없어요: {why}";
    NOT_APPEND_TIME = "the broker stamped the message with {why}, not its append time",
        "브로커가 메시지에 추가 시각이 아닌 시각을 찍었어요({why})";
    NOT_DELIVERED = "the message to {topic} was not delivered: {why}",
        "{topic} 토픽으로 보낸 메시지가 전달되지 않았어요: {why}";
    NO_REPORT = "no delivery report for the message to {topic} within {seconds} s",
        "{topic} 토픽으로 보낸 메시지의 전달 보고가 {seconds}초 안에 오지 않았어요";
}

// The same in both languages, so in no table of Korean text.
krb_cli::msgs! { ;
    /// A check's line: status, name, finding; and the fix of a warning or failure.
    LINE = "{status} {name}: {detail}", "{status} {name}: {detail}";
    /// The checks' names. `Kafka` and `namespace` are the pages' own words in both languages.
    NAMESPACE = "namespace", "namespace";
    KAFKA = "Kafka", "Kafka";
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_cli::lang::table_problems;

    #[test]
    fn every_message_is_korean_with_the_same_placeholders_and_listed() {
        assert_eq!(table_problems(ALL), Vec::<String>::new());
    }
}
