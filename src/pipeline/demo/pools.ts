// Word pools of the demo generator: franchises, first and last names (accents, apostrophes and
// hyphens included), colleges and overseas clubs, and the 2kratings-style image URLs built from
// them. Data only; every draw happens in the callers with a seeded stream.

import { slugify } from "../../model/names.js";

export const FRANCHISES = [
  "Atlanta Hawks", "Boston Celtics", "Brooklyn Nets", "Charlotte Hornets", "Chicago Bulls", "Cleveland Cavaliers",
  "Dallas Mavericks", "Denver Nuggets", "Detroit Pistons", "Golden State Warriors", "Houston Rockets", "Indiana Pacers",
  "Los Angeles Clippers", "Los Angeles Lakers", "Memphis Grizzlies", "Miami Heat", "Milwaukee Bucks",
  "Minnesota Timberwolves", "New Orleans Pelicans", "New York Knicks", "Oklahoma City Thunder", "Orlando Magic",
  "Philadelphia 76ers", "Phoenix Suns", "Portland Trail Blazers", "Sacramento Kings", "San Antonio Spurs",
  "Toronto Raptors", "Utah Jazz", "Washington Wizards",
] as const;

export const FREE_AGENCY = "Free Agency";

/** Each pool keeps one spelling per slug, so first × last combinations never collide. */
export function uniqueBySlug(words: readonly string[]): readonly string[] {
  const seen = new Set<string>();
  return words.filter((word) => {
    const slug = slugify(word);
    if (slug === "" || seen.has(slug)) return false;
    seen.add(slug);
    return true;
  });
}

export const MODERN_FIRST = uniqueBySlug([
  "Jalen", "Jaylen", "Marcus", "Anthony", "Tyrese", "De'Andre", "D'Angelo", "Da'Quan", "Ja'Vonte", "Tre", "Devin",
  "Darius", "Malik", "Isaiah", "Jamal", "Keldon", "Cam", "Cameron", "Scotty", "Jaren", "Evan", "Josh", "Jaden",
  "Jayden", "Kyle", "Chris", "Terrence", "Andre", "Brandon", "Donovan", "Derrick", "Kevin", "Paul", "DeMarcus",
  "Khalil", "Dejon", "Immanuel", "Obi", "Amen", "Ausar", "Stephon", "Trey", "Tyler", "Tyus", "Jordan", "Keyonte",
  "Jabari", "Keegan", "Bennedict", "Jarace", "Dyson", "Quentin", "Kobe", "Markelle", "Saddiq", "Onyeka", "Precious",
  "Chima", "Jericho", "Moses", "Aaron", "Bryce", "Caleb", "Cole", "Colby", "Collin", "Dalen", "Damion", "Dante",
  "Davion", "Deon", "Desmond", "Devonte'", "Dominick", "Elijah", "Emoni", "Gradey", "Grayson", "Harrison", "Ivan",
  "Jaime", "Jakob", "Javonte", "Jett", "Jonathan", "Julian", "Justin", "Kai", "Kenyon", "Kris", "Lamar", "Landry",
  "Malachi", "Marquis", "Mason", "Max", "Micah", "Miles", "Naji", "Nate", "Nick", "Noah", "Omari", "Quenton",
  "Reed", "Rayan", "AJ", "PJ", "T.J.", "Sam", "Taurean", "Terance", "Tobias", "Trayce", "Trendon", "Tyrell",
  "Walker", "Xavier", "Zach", "Ziaire", "Zeke", "Keon", "Kenrich", "Ja'Kobe", "De'Vion", "Jae'Sean", "Jahmi'us",
  "Shaedon", "Dereck", "Isaac", "Jarrett", "Kawan", "Nah'Shon", "Tari", "Armel", "Cody", "Garrison", "Luguentz",
]);

export const MODERN_LAST = uniqueBySlug([
  "Johnson", "Williams", "Brown", "Jackson", "Davis", "Harris", "Robinson", "Walker", "Green", "Mitchell",
  "Thompson", "Young", "Allen", "Hill", "Wright", "King", "Scott", "Carter", "Bridges", "Porter", "Murray",
  "Holiday", "Ball", "Barnes", "Mobley", "Sexton", "Duren", "Ivey", "Suggs", "Wagner", "Kessler", "Jaquez",
  "Podziemski", "Whitmore", "Hendricks", "Strawther", "Tyson", "Ellis", "Huerter", "Dunn", "Nesmith", "Wiggins",
  "Gordon", "Nembhard", "Mathurin", "Sheppard", "Castle", "Dillingham", "Reed", "Knecht", "Edey", "Clingan",
  "Buzelis", "Collier", "Filipowski", "Shead", "Kolek", "McCain", "Walter", "George", "Carrington", "McDaniels",
  "McCollum", "McConnell", "DiVincenzo", "LaRue", "DeMarco", "O'Bryant", "O'Quinn", "O'Connell", "O'Brien",
  "Caldwell-Pope", "Kidd-Gilchrist", "Robinson-Earl", "Walker-Kimbrough", "Hayes-Davis", "Crawford-Boyd",
  "Watson-Grant", "Horton-Tucker", "Sims-Bell", "Porter-Mitchell", "Alexander-Walker", "Smith-Rowe", "Okongwu",
  "Okafor", "Olynyk", "Nnaji", "Nwora", "Ogbonnaya", "Anigbogu", "Achiuwa", "Okoro", "Oturu", "Adeyemi",
  "Bamba", "Sochan", "Holmgren", "Jovanović", "Battle", "Council", "Grimes", "Hardy", "Hood-Schifino", "Jeffries",
  "Lively", "Mann", "Miller", "Nance", "Payne", "Quickley", "Reaves", "Simmons", "Terry", "Vincent", "Washington",
  "Watford", "Yabusele", "Zeller", "Beauchamp", "Cissoko", "Dosunmu", "Fontecchio", "Goodwin", "Hunter", "Isaacs",
]);

export const INTERNATIONAL_FIRST = uniqueBySlug([
  "Nikola", "Luka", "Jusuf", "Dario", "Bogdan", "Jonas", "Domantas", "Goran", "Thanasis", "Kostas", "Rudy",
  "Nicolas", "Victor", "Alperen", "Kristaps", "Dāvis", "Franz", "Moritz", "Lauri", "Deni", "Vasilije", "Marko",
  "Aleksej", "Filip", "Ognjen", "Vlatko", "Ivica", "Mindaugas", "Žydrūnas", "Rokas", "Tadas", "Ignas", "Arnas",
  "Sasha", "Tidjane", "Zaccharie", "Bilal", "Ousmane", "Théo", "Mathis", "Killian", "Yves", "Sergio", "Santi",
  "Juancho", "Usman", "Pau", "Hugo", "Facundo", "Gabriel", "Leandro", "Bruno", "Didi", "Nikos", "Giorgos",
  "Yannis", "Mouhamed", "Jock", "Olivier", "Furkan", "Ömer", "Cedi", "Ersan", "Hedo", "Mirza", "Džanan", "Dāvids",
  "Rodions", "Tomáš", "Jan", "Ondřej", "Vít", "Nemanja", "Dušan", "Stefan", "Uroš", "Kenan", "Šarūnas", "Mikhail",
]);

export const INTERNATIONAL_LAST = uniqueBySlug([
  "Jović", "Marković", "Petrović", "Bogdanović", "Vučević", "Šarić", "Bjelica", "Milutinov", "Micić", "Avdija",
  "Hezonja", "Zubac", "Musa", "Matković", "Kalinić", "Krstić", "Đorđević", "Radončić", "Bertāns", "Kurucs",
  "Motiejūnas", "Kuzminskas", "Jasikevičius", "Kleiza", "Ulanovas", "Mamukelashvili", "Papagiannis",
  "Kalaitzakis", "Papanikolaou", "Karadimitropoulos", "Sloukas", "Calathes", "Ntilikina", "Coulibaly", "Sarr",
  "Batum", "Fournier", "Diallo", "Sissoko", "Ndiaye", "Doumbouya", "Korkmaz", "Osman", "Türkoğlu", "Yurtseven",
  "Hernangómez", "Llull", "Garuba", "Aldama", "Abrines", "Theis", "Kleber", "Obst", "Da Silva", "Campazzo",
  "Deck", "Laprovíttola", "Scola", "Nocioni", "Delfino", "Giddey", "Dellavedova", "Exum", "Ingles", "Landale",
  "Mulder", "Bitadze", "Pokuševski", "Hukporti", "Tshiebwe", "Kabengele", "Mbah a Moute", "Satoranský", "Veselý",
  "Krejčí", "Jokubaitis", "Valančius", "Šmits", "Dončević", "Nurković", "Adetokunbo", "Stojanović", "Lučić",
]);

export const CLASSIC_FIRST = uniqueBySlug([
  "Larry", "Dennis", "Horace", "Reggie", "Clyde", "Isiah", "Joe", "Julius", "Bernard", "Maurice", "Walt", "Earl",
  "Bob", "Bill", "Jerry", "Elgin", "Oscar", "Dave", "Pete", "Rick", "Otis", "Buck", "Mookie", "Detlef", "Sam",
  "Byron", "Danny", "Terry", "Kenny", "Rolando", "Mark", "Mike", "Ron", "Rodney", "Charles", "Cedric", "Derek",
  "Dale", "Ricky", "Hersey", "Armon", "Dell", "Sleepy", "Tree", "Vinnie", "Darrell", "Tom", "Brian", "Brad", "Greg",
  "Jeff", "Scott", "Chuck", "Wes", "Elvin", "Phil", "Willis", "Nate", "Lenny", "Jojo", "Purvis", "Mychal", "Kiki",
  "Alvin", "Truck", "Bo", "Popeye", "Junior", "Rony", "Chucky", "Avery", "Sedale", "Tyrone", "Rex", "Rasheed",
  "Antoine", "Jerome", "LaPhonso", "Latrell", "Shareef", "Bonzi", "Voshon", "Antonio", "Tariq", "Eddie", "Lamond",
  "Haywoode", "Calbert", "Brevin", "Cuttino", "Doc", "Gus", "Sidney", "Fred", "Lonnie", "Glen", "Gerald", "Vern",
]);

export const CLASSIC_LAST = uniqueBySlug([
  "Price", "Daugherty", "Ehlo", "Harper", "Cartwright", "Paxson", "Armstrong", "Longley", "Wennington",
  "Buechler", "Salley", "Aguirre", "Edwards", "Mahorn", "Oakley", "Mason", "Rivers", "Willis", "Koncak",
  "Levingston", "Carr", "Gminski", "Hawkins", "McKey", "Cage", "Perkins", "Threatt", "Cooper", "Rambis",
  "Tucker", "Pressey", "Sikma", "Lister", "Moncrief", "Cummings", "Fields", "Humphries", "Benjamin", "Smits",
  "Workman", "McCloud", "Ferrell", "Croshere", "Best", "Person", "Chapman", "Shaw", "Horry", "Fox", "Rider",
  "Fisher", "Madsen", "Mihm", "Kittles", "Van Horn", "Martin", "Collins", "MacCulloch", "Battie", "Peeler",
  "Curry", "Gill", "Gattison", "Lynch", "Mokeski", "Breuer", "Pressley", "Krystkowiak", "Sichting", "Wedman",
  "Kite", "Carlisle", "Vranković", "Radja", "Ćurčić", "Tarpley", "Blackman", "Ellison", "Kersey", "Duckworth",
  "Floyd", "Bagley", "Corbin", "Eaton", "Hansen", "Bailey", "Iavaroni", "Toney", "Jones", "Cheeks",
  "Mix", "Dawkins", "Westphal", "Adams", "Sobers", "Lucas", "Unseld", "Dandridge", "Kupchak", "Grevey", "Ballard",
]);

export const NAME_SUFFIXES = ["Jr.", "II", "III"] as const;

export const COLLEGES = [
  "Kentucky", "Duke", "North Carolina", "Kansas", "UCLA", "Arizona", "Michigan State", "Villanova", "Gonzaga",
  "Texas", "Florida", "UConn", "Syracuse", "Georgetown", "Louisville", "Indiana", "Ohio State", "Michigan",
  "Wake Forest", "Maryland", "Baylor", "Houston", "Tennessee", "Auburn", "Alabama", "Arkansas", "LSU", "Memphis",
  "Southern California", "Oregon", "Washington", "Stanford", "Virginia", "Iowa State", "Texas Tech", "Creighton",
  "Marquette", "Purdue", "Illinois", "Wisconsin", "Notre Dame", "Vanderbilt", "Georgia Tech", "St. John's",
  "Seton Hall", "Providence", "Xavier", "Dayton", "San Diego State", "Murray State", "Davidson", "Weber State",
  "Saint Mary's", "BYU", "Colorado", "Utah", "Arizona State", "Oklahoma", "Oklahoma State", "Kansas State",
  "West Virginia", "Pittsburgh", "Miami (FL)", "Florida State", "Clemson", "NC State", "Cincinnati", "Butler",
  "UNLV", "Texas A&M", "Missouri", "Iowa", "Minnesota", "Temple", "La Salle", "Wichita State", "Belmont",
] as const;

export const CLASSIC_COLLEGES = [
  ...COLLEGES, "Centenary", "Louisiana Tech", "McNeese State", "UTEP", "Seattle", "Jacksonville",
  "Grambling State", "Southern", "Pepperdine", "Long Beach State", "Old Dominion", "Detroit Mercy",
] as const;

/** Where the youngest current players come from when not from a college. */
export const PREP_PATHS = ["G League Ignite", "Overtime Elite", "IMG Academy", "NBL Next Stars"] as const;

export const CLUBS = [
  "KK Mega Basket", "Real Madrid", "FC Barcelona", "Partizan", "Crvena zvezda", "Žalgiris Kaunas", "Olympiacos",
  "Panathinaikos", "Anadolu Efes", "Fenerbahçe", "ASVEL", "Cholet Basket", "Metropolitans 92", "Adelaide 36ers",
  "Ratiopharm Ulm", "KK Cedevita", "Bayern Munich", "Maccabi Tel Aviv", "Baskonia", "Unicaja",
  "Joventut Badalona", "KK Cibona", "Virtus Bologna", "Olimpia Milano", "New Zealand Breakers", "Perth Wildcats",
] as const;

const UPLOADS = "https://www.2kratings.com/wp-content/uploads/";

/** `Shaquille O'Neal` → `Shaquille-ONeal`: accents folded, apostrophes and periods dropped, case kept. */
export function imageStem(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[Đđ]/g, "D")
    .replace(/['’.]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `LeBron-James-2K27-Rating.png`; classic and all-time portraits carry their team's tag. */
export function playerImageUrl(name: string, tag: string, gameVersion: string): string {
  return `${UPLOADS}${imageStem(name)}${tag ? `-${imageStem(tag)}` : ""}-${gameVersion}-Rating.png`;
}

export function currentLogoUrl(franchise: string): string {
  return franchise === FREE_AGENCY ? `${UPLOADS}free-agency.svg` : `${UPLOADS}${imageStem(franchise)}-Current-Logo.svg`;
}

/** `1995-96 Chicago Bulls` → `95-96-Chicago-Bulls-Classic-2K.svg`. */
export function classicLogoUrl(season: string, teamName: string): string {
  return `${UPLOADS}${season.slice(2)}-${imageStem(teamName)}-Classic-2K.svg`;
}
